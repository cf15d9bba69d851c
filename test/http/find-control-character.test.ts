import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findControlCharacter } from '../../src/http/find-control-character.js';

/** The character set of docs/http-api.md "Control characters", one row per decision. */
const refused = [...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => ![0x09, 0x0a, 0x0d].includes(c)), 0x7f].map(
  (c) => String.fromCharCode(c),
);

describe('findControlCharacter', () => {
  it.each(refused.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`, c]))(
    'refuses %s',
    (_name, c) => {
      expect(findControlCharacter(`a${c}b`)).toEqual({ path: [], inKey: false });
    },
  );

  it.each([
    ['TAB', '\t'],
    ['LF', '\n'],
    ['CR', '\r'],
    ['space', ' '],
    ['a C1 control (U+0085, storable on both databases)', '\u0085'],
    ['non-ASCII text', 'Zoë 😀 東京'],
    ['a lone surrogate', '\ud800'],
    ['the empty string', ''],
  ])('allows %s', (_name, text) => {
    expect(findControlCharacter(`a${text}b`)).toBeNull();
  });

  it.each<[string, unknown, ReturnType<typeof findControlCharacter>]>([
    [
      'a flat form value',
      { grant_type: 'client_credentials', client_id: 'web\u0000' },
      { path: ['client_id'], inKey: false },
    ],
    [
      'a form of a null prototype',
      Object.assign(Object.create(null) as object, { a: 'x', b: '\u0001' }),
      { path: ['b'], inKey: false },
    ],
    ['a repeated parameter', { scope: ['openid', 'em\u001fail'] }, { path: ['scope', 1], inKey: false }],
    ['a nested JSON value', { a: { b: [{ c: 'ok' }, { d: '\u007f' }] } }, { path: ['a', 'b', 1, 'd'], inKey: false }],
    ['a key', { a: { 'b\u0000': 'ok' } }, { path: ['a'], inKey: true }],
    ['a top-level key', { 'x\u0002': 1 }, { path: [], inKey: true }],
    ['a string in an array body', ['ok', '\u0000'], { path: [1], inKey: false }],
    ['clean input', { a: 'x', b: [1, true, null, 'y'], c: { d: 'tab\there' } }, null],
    ['no input', null, null],
    ['a number', 7, null],
    ['a Buffer (an unparsed body)', Buffer.from('a\u0000b'), null],
    [
      'a class instance',
      new (class {
        s = '\u0000';
      })(),
      null,
    ],
  ])('%s', (_name, input, expected) => {
    expect(findControlCharacter(input)).toEqual(expected);
  });

  it('walks a body nested deeper than the call stack', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`) as unknown;
    expect(findControlCharacter(deep)?.path).toHaveLength(depth);
  });

  it('property: finds a refused character wherever it is put in a JSON value, and nothing in one without', () => {
    const clean = fc.string({ maxLength: 8 }).filter((s) => findControlCharacter(s) === null);
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        clean,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(clean, tie('value'), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(json, fc.constantFrom(...refused), fc.nat(), (value, c, pick) => {
        expect(findControlCharacter(value)).toBeNull();
        // Taint one string of the value (or the value itself): the finder must see it.
        const strings: { set(s: string): void; get(): string }[] = [];
        let root: unknown = value;
        const visit = (node: unknown, set: (v: unknown) => void) => {
          if (typeof node === 'string') strings.push({ get: () => node, set });
          else if (Array.isArray(node)) node.forEach((item, i) => visit(item, (v) => (node[i] = v)));
          else if (node && typeof node === 'object')
            for (const [k, item] of Object.entries(node))
              visit(item, (v) => ((node as Record<string, unknown>)[k] = v));
        };
        visit(root, (v) => (root = v));
        if (strings.length === 0) return;
        const target = strings[pick % strings.length];
        target.set(`${target.get()}${c}`);
        expect(findControlCharacter(root)).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
