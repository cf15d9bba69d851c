import type { EntityField } from '../model/entity-fields.js';
import { SENSITIVE, type FieldChange, type PlanValue } from './plan.js';

/**
 * How one field of a config-managed object is compared and shown: `field`
 * is its config-file name, `property` the record's. A sensitive field holds
 * a hash or fingerprint of a secret: it is compared by that value and
 * always shown as (sensitive).
 */
export interface FieldSpec<T> {
  field: string;
  property: keyof T & string;
  sensitive?: boolean;
  /** Left out of a create while it has no value (a profile field the file does not declare). */
  optional?: boolean;
  /** How a value that is not the file's form is shown (a record's camelCase object in the file's snake_case). */
  show?: (value: unknown) => PlanValue;
}

/** The planned fields of a field table (src/model/entity-fields.ts): those the config file declares. */
export function plannedFields<T>(fields: readonly EntityField<T>[]): FieldSpec<T>[] {
  return fields.flatMap((f) =>
    f.file === undefined
      ? []
      : [{ field: f.file, property: f.property, sensitive: f.sensitive === true, optional: f.optional === true }],
  );
}

export interface FieldDiff<T> {
  fields: FieldChange[];
  /** The changed properties with their desired values. */
  changes: Partial<T>;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function shown<T>(spec: FieldSpec<T>, value: unknown): PlanValue {
  if (spec.sensitive && value !== null) return SENSITIVE;
  return spec.show ? spec.show(value) : (value as PlanValue);
}

/** The fields that differ between the stored and the desired record, old → new. */
export function diffFields<T>(specs: FieldSpec<T>[], stored: T, desired: T): FieldDiff<T> {
  const fields: FieldChange[] = [];
  const changes: Partial<T> = {};
  for (const spec of specs) {
    const old = stored[spec.property];
    const next = desired[spec.property];
    if (same(old, next)) continue;
    fields.push({ field: spec.field, old: shown(spec, old), new: shown(spec, next) });
    changes[spec.property] = next;
  }
  return { fields, changes };
}

/** Every field of a record about to be created (old is null), but optional ones without a value. */
export function listFields<T>(specs: FieldSpec<T>[], desired: T): FieldChange[] {
  return specs
    .filter((spec) => !spec.optional || desired[spec.property] !== null)
    .map((spec) => ({ field: spec.field, old: null, new: shown(spec, desired[spec.property]) }));
}

export function byKey(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
