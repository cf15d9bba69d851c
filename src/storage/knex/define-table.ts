/**
 * The row codec: one declaration per table maps each field of a record to
 * its column and says how the value is stored, and the reading and writing
 * of rows follow from it. Every repository in this folder maps its rows
 * through one, so a value type is stored the same way in every table (a
 * list is always a JSON array, migration 0019).
 */

import type { EntityField, StoredAs } from '../../model/entity-fields.js';

/** A stored row or a part of one, by column name. */
export type Row = Record<string, unknown>;

/** How one field's value is written to its column and read back. */
export interface ColumnCodec<T> {
  encode: (value: T) => unknown;
  decode: (stored: unknown) => T;
}

/** Text stored as is; `T` narrows it to the field's literal union. */
export function text<T extends string = string>(): ColumnCodec<T> {
  return { encode: (value) => value, decode: (stored) => stored as T };
}

/** A whole number, such as a counter (PostgreSQL returns a bigint as a string). */
export const integer: ColumnCodec<number> = { encode: (value) => value, decode: (stored) => Number(stored) };

/** Epoch milliseconds in a bigint column. */
export const timestamp = integer;

/** SQLite stores a boolean as 0 or 1. */
export const boolean: ColumnCodec<boolean> = { encode: (value) => value, decode: (stored) => Boolean(stored) };

/** Any JSON value, stored as its text. */
export function json<T>(): ColumnCodec<T> {
  return { encode: (value) => JSON.stringify(value), decode: (stored) => JSON.parse(stored as string) as T };
}

/** A list of strings (scopes, amr, redirect URIs…): always a JSON array, in every table. */
export function list<T extends string = string>(): ColumnCodec<T[]> {
  return json<T[]>();
}

/** The codec with SQL NULL for null. */
export function nullable<T>(codec: ColumnCodec<T>): ColumnCodec<T | null> {
  return {
    encode: (value) => (value === null ? null : codec.encode(value)),
    decode: (stored) => (stored === null || stored === undefined ? null : codec.decode(stored)),
  };
}

/** Every field of the record: its column and codec. */
export type TableColumns<R> = { [K in keyof R]-?: readonly [column: string, codec: ColumnCodec<R[K]>] };

export interface Table<R> {
  readonly name: string;
  /** The column names, in declaration order. */
  readonly columns: readonly string[];
  fromRow: (row: Row) => R;
  /** The record in prefixed columns of a row (`g_scopes` for a joined grant's `scopes`). */
  fromPrefixedRow: (row: Row, prefix: string) => R;
  toRow: (record: R) => Row;
  /** The columns of the fields present in `changes` (an absent or undefined field is left as it is). */
  toColumns: (changes: Partial<R>) => Row;
}

export function defineTable<R>(name: string, fields: TableColumns<R>): Table<R> {
  const entries = Object.entries(fields) as [keyof R & string, readonly [string, ColumnCodec<unknown>]][];
  const toColumns = (changes: Partial<R>): Row => {
    const row: Row = {};
    for (const [field, [column, codec]] of entries) {
      const value = changes[field];
      if (value !== undefined) row[column] = codec.encode(value);
    }
    return row;
  };
  const fromPrefixedRow = (row: Row, prefix: string): R => {
    const record: Partial<Record<keyof R, unknown>> = {};
    for (const [field, [column, codec]] of entries) record[field] = codec.decode(row[prefix + column]);
    return record as R;
  };
  return {
    name,
    columns: entries.map(([, [column]]) => column),
    fromRow: (row) => fromPrefixedRow(row, ''),
    fromPrefixedRow,
    toRow: (record) => toColumns(record),
    toColumns,
  };
}

const codecs = {
  text: text(),
  'nullable text': nullable(text()),
  boolean,
  list: list(),
  json: json(),
  'nullable json': nullable(json()),
  timestamp,
  'nullable timestamp': nullable(timestamp),
} satisfies Record<StoredAs, unknown>;

/** Compiles only when the field table has a row for every property of the record, else names the missing ones. */
type EveryProperty<R, F extends readonly EntityField<R>[]> =
  Exclude<keyof R, F[number]['property']> extends never
    ? unknown
    : { missing: Exclude<keyof R, F[number]['property']> };

/** The table of a config-managed entity, from its field table (src/model/entity-fields.ts). */
export function tableOf<R, const F extends readonly EntityField<R>[]>(
  name: string,
  fields: F & EveryProperty<R, F>,
): Table<R> {
  const columns = Object.fromEntries(fields.map((f) => [f.property, [f.column, codecs[f.storedAs]]]));
  // Each codec decodes to its StoredAs type, which the record type declares for that property.
  return defineTable<R>(name, columns as unknown as TableColumns<R>);
}
