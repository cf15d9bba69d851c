import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/config/parse-yaml.js';
import { yaml } from './load-text.js';

function plain(text: string): unknown {
  const parsed = parseYaml(text, 'idp.yaml');
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  return parsed.parsed.value;
}

// The rules of yaml's toJS, kept: the config's meaning must not change with the converter.
describe('toPlainValue', () => {
  it.each([
    ['an empty document', '', null],
    [
      'scalars of the core schema',
      yaml('a: [1, 1.5, true, null, ~, x, "2"]'),
      { a: [1, 1.5, true, null, null, 'x', '2'] },
    ],
    ['keys as text, an empty key as ""', yaml('1: a', 'true: b', '?', ': c'), { '1': 'a', true: 'b', '': 'c' }],
    [
      'a key "__proto__" as a plain key',
      yaml('__proto__: { polluted: 1 }'),
      JSON.parse('{"__proto__":{"polluted":1}}'),
    ],
    [
      'keys before and after a merge over the merged ones',
      yaml('m: { a: own, <<: { a: merged, b: merged, c: merged }, c: own }'),
      { m: { a: 'own', b: 'merged', c: 'own' } },
    ],
    [
      'the first of several merged mappings first',
      yaml('m: { <<: [{ a: first }, { a: second, b: second }] }'),
      { m: { a: 'first', b: 'second' } },
    ],
    [
      'a merge of an alias of a list of mappings',
      yaml('l: &l [{ a: "1" }, { b: "2" }]', 'm: { <<: *l, c: "3" }'),
      { l: [{ a: '1' }, { b: '2' }], m: { a: '1', b: '2', c: '3' } },
    ],
    ['a quoted "<<" as a plain key', yaml('m: { "<<": x }'), { m: { '<<': 'x' } }],
    ['an alias in a key', yaml('k: &k name', 'm: { *k : v }'), { k: 'name', m: { name: 'v' } }],
  ])('%s', (_name, text, expected) => {
    expect(plain(text)).toEqual(expected);
  });

  it('gives every alias of a node the same value, as yaml does', () => {
    const value = plain(yaml('a: &x { b: [1] }', 'c: *x', 'd: *x')) as Record<string, unknown>;
    expect(value.c).toBe(value.a);
    expect(value.d).toBe(value.a);
    expect(Object.getPrototypeOf(plain(yaml('__proto__: { polluted: 1 }')))).toBe(Object.prototype);
  });
});

describe("toPlainValue and yaml's toJS agree (fast-check)", () => {
  // One key per line; an alias names the latest mapping anchor, when there is one yet.
  const kinds = ['anchor', 'scalar anchor', 'alias', 'merge', 'merges', 'keys', 'quoted merge key'] as const;
  function text(picks: (typeof kinds)[number][]): string {
    let map: string | null = null;
    let scalar: string | null = null;
    const lines = picks.map((kind, i) => {
      if (kind === 'anchor') map = `m${i}`;
      if (kind === 'scalar anchor') scalar = `s${i}`;
      const value = {
        anchor: `&m${i} { b: ${i}, c: [2, 3], <<: { d: 4 } }`,
        'scalar anchor': `&s${i} x${i}`,
        alias: map ? `*${map}` : '[]',
        merge: map ? `{ <<: *${map}, b: own }` : '{}',
        merges: map ? `[*${map}, { <<: [*${map}, { g: 5 }], g: own }]` : '[]',
        keys: `{ 1: one, true: t, null: n${scalar ? `, *${scalar} : aliased` : ''} }`,
        'quoted merge key': `{ "<<": ${map ? `*${map}` : 'x'} }`,
      }[kind];
      return `k${i}: ${value}`;
    });
    return `${lines.join('\n')}\n`;
  }

  it('on texts of anchors, aliases and merges', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { maxLength: 10 }), (picks) => {
        const source = text(picks);
        const parsed = parseYaml(source, 'idp.yaml');
        expect(parsed.ok).toBe(true);
        if (parsed.ok)
          expect(JSON.stringify(parsed.parsed.value)).toBe(
            JSON.stringify(parseDocument(source, { merge: true, uniqueKeys: true }).toJS({ maxAliasCount: -1 })),
          );
      }),
      { numRuns: 300 },
    );
  });
});
