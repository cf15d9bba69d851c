import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/storage/knex/describe-schema.js';

/** A column's kind from the type each engine reports (SQLite keeps knex's declared names, PostgreSQL its own). */
describe('column kinds', () => {
  it.each([
    ['boolean', 'boolean'],
    ['bigint', 'integer'],
    ['integer', 'integer'],
    ['character varying', 'text'],
    ['varchar(255)', 'text'],
    ['uuid', 'text'],
    ['bytea', 'binary'],
    ['blob', 'binary'],
    ['jsonb', 'json'],
    ['timestamp with time zone', 'time'],
    ['datetime', 'time'],
    ['real', 'number'],
    ['double precision', 'number'],
    ['numeric(8,2)', 'number'],
    ['inet', 'other'],
  ])('%s is %s', (declared, kind) => {
    expect(kindOf(declared)).toBe(kind);
  });
});
