/**
 * The field table of a config-managed entity: one row per field of its
 * record, from which the config's normalization (src/config), the gitops
 * plan (src/gitops) and the row mapping (src/storage/knex) all follow, so
 * that a new field is one row here (docs/architecture.md "Adding a config
 * field").
 */

/** How a field's value is stored in its column (src/storage/knex/define-table.ts holds the codec of each). */
export type StoredAs =
  'text' | 'nullable text' | 'boolean' | 'list' | 'json' | 'nullable json' | 'timestamp' | 'nullable timestamp';

export interface EntityField<R> {
  property: keyof R & string;
  column: string;
  storedAs: StoredAs;
  /** Its key in the config file: gitops compares the field and shows its changes under this name. */
  file?: string;
  /** Taken from the file as it is; otherwise normalization computes it (a default, a hashed secret). */
  copied?: true;
  /** Holds a hash or fingerprint of a secret: compared by it, always shown as (sensitive). */
  sensitive?: true;
  /** Left out of a planned create while it has no value (a profile field the file does not declare). */
  optional?: true;
}

/** The properties a field table copies from the file unchanged. */
export type CopiedProperty<T extends readonly { property: string; copied?: true }[]> = Extract<
  T[number],
  { copied: true }
>['property'];

/**
 * The copied fields' values from a config-file entry, by property: a key
 * the file leaves out is null (as its column stores it), so a plan never
 * sees a change between absent and null.
 */
export function copyFromFile(
  fields: readonly { property: string; file?: string; copied?: true }[],
  entry: object,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields)
    if (field.copied && field.file !== undefined)
      values[field.property] = (entry as Record<string, unknown>)[field.file] ?? null;
  return values;
}
