import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeValue, encodeValue } from '../../src/backup/encode-value.js';
import type { ColumnKind } from '../../src/storage/repositories.js';

/** A value through a backup line: encoded, written as JSON, read back and decoded for its column's kind. */
const throughLine = (value: unknown, kind: ColumnKind) =>
  decodeValue(JSON.parse(JSON.stringify(encodeValue(value))) as unknown, kind);

describe('backup value encoding', () => {
  it('brings every value of each kind back as it was', () => {
    const cases: [ColumnKind, fc.Arbitrary<unknown>][] = [
      ['boolean', fc.boolean()],
      ['integer', fc.maxSafeInteger().filter((n) => !Object.is(n, -0))],
      ['number', fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0))],
      ['text', fc.string({ unit: 'grapheme' })],
      ['binary', fc.uint8Array().map((bytes) => Buffer.from(bytes))],
      // JSON itself has no -0: a value as it comes back from any JSON column.
      ['json', fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown)],
      ['time', fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(8.64e15) })],
      ['other', fc.oneof(fc.string(), fc.integer(), fc.boolean())],
    ];
    for (const [kind, values] of cases)
      fc.assert(
        fc.property(fc.option(values, { nil: null }), (value) => {
          expect(throughLine(value, kind)).toEqual({ value });
        }),
      );
  });

  it('never takes a JSON column object for a tag, nor a string for binary', () => {
    expect(throughLine({ base64: 'AAAA' }, 'json')).toEqual({ value: { base64: 'AAAA' } });
    expect(throughLine(['a', 1], 'json')).toEqual({ value: ['a', 1] });
    expect(throughLine('AAAA', 'binary')).toEqual({ problem: 'expected binary ({"base64": …}), found "AAAA"' });
    expect(encodeValue(12n)).toBe(12);
    expect(encodeValue(undefined)).toBeNull();
    expect(() => encodeValue(Number.NaN)).toThrow('cannot write the number NaN');
  });

  it('refuses a value that does not fit its column, with what was expected', () => {
    const table: [unknown, ColumnKind, string][] = [
      [1, 'boolean', 'expected true or false, found 1'],
      [1.5, 'integer', 'expected a whole number, found 1.5'],
      ['1', 'number', 'expected a number, found "1"'],
      [true, 'text', 'expected a string, found true'],
      [false, 'time', 'expected a time, found false'],
      [{ date: 'yesterday' }, 'time', '"yesterday" is not a time'],
      [{ date: '2026-01-01T00:00:00.000Z' }, 'text', 'expected a string, found {"date":"2026-01-01T00:00:00.000Z"}'],
      [{ json: 1, base64: '' }, 'json', 'expected a JSON value, found {"json":1,"base64":""}'],
      [['a'], 'other', 'expected a value, found ["a"]'],
      [{ base64: 1 }, 'binary', 'expected binary ({"base64": …}), found {"base64":1}'],
    ];
    for (const [encoded, kind, problem] of table) expect(decodeValue(encoded, kind)).toEqual({ problem });
    expect(decodeValue('2026-01-01', 'time')).toEqual({ value: '2026-01-01' });
    expect(decodeValue({ base64: 'AQI=' }, 'other')).toEqual({ value: Buffer.from([1, 2]) });
    expect(decodeValue({ json: { a: 1 } }, 'other')).toEqual({ value: { a: 1 } });
  });
});
