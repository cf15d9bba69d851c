import type { ColumnKind } from '../storage/repositories.js';
import { BackupError } from './backup-error.js';

/**
 * A column value in a backup line: JSON's own null, booleans, numbers and
 * strings as they are; whatever JSON cannot say plainly is an object with
 * one tag: `{"base64": …}` for binary, `{"date": ISO 8601}` for a time the
 * driver gave as a Date, `{"json": value}` for the value of a JSON column
 * that is an object or an array. So a plain string is never mistaken for
 * binary, nor a JSON column's object for a tag.
 */
export type EncodedValue = null | boolean | number | string | { base64: string } | { date: string } | { json: unknown };

export function encodeValue(value: unknown): EncodedValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new BackupError(`cannot write the number ${value}`);
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return { base64: value.toString('base64') };
  if (value instanceof Date) return { date: value.toISOString() };
  return { json: value };
}

/**
 * The value for a column of `kind`, or a message saying why the line's
 * value cannot go there (the caller adds the line and column).
 */
export function decodeValue(encoded: unknown, kind: ColumnKind): { value: unknown } | { problem: string } {
  if (encoded === null) return { value: null };
  if (typeof encoded === 'object') return decodeTagged(encoded as Record<string, unknown>, kind);
  const fits =
    kind === 'other' ||
    kind === 'json' ||
    (kind === 'boolean' && typeof encoded === 'boolean') ||
    (kind === 'integer' && Number.isSafeInteger(encoded)) ||
    (kind === 'number' && typeof encoded === 'number') ||
    (kind === 'text' && typeof encoded === 'string') ||
    (kind === 'time' && (typeof encoded === 'string' || typeof encoded === 'number'));
  return fits ? { value: encoded } : { problem: `expected ${expected[kind]}, found ${JSON.stringify(encoded)}` };
}

const expected: Record<ColumnKind, string> = {
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  text: 'a string',
  binary: 'binary ({"base64": …})',
  json: 'a JSON value',
  time: 'a time',
  other: 'a value',
};

function decodeTagged(tagged: Record<string, unknown>, kind: ColumnKind): { value: unknown } | { problem: string } {
  const keys = Array.isArray(tagged) ? [] : Object.keys(tagged);
  const tag = keys.length === 1 ? keys[0] : undefined;
  if (tag === 'base64' && typeof tagged.base64 === 'string' && (kind === 'binary' || kind === 'other'))
    return { value: Buffer.from(tagged.base64, 'base64') };
  if (tag === 'date' && typeof tagged.date === 'string' && (kind === 'time' || kind === 'other')) {
    const time = new Date(tagged.date);
    if (Number.isNaN(time.getTime())) return { problem: `${JSON.stringify(tagged.date)} is not a time` };
    return { value: time };
  }
  if (tag === 'json' && (kind === 'json' || kind === 'other')) return { value: tagged.json };
  return { problem: `expected ${expected[kind]}, found ${JSON.stringify(tagged)}` };
}
