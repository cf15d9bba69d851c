import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { pickOneOfBranch } from '../../src/config/pick-one-of-branch.js';

// The same ajv options as src/config/check-shape.ts, on a oneOf with a shape that is not an object.
const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true });
const validate = ajv.compile({
  type: 'object',
  properties: {
    x: {
      oneOf: [
        { type: 'string', minLength: 2 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['a', 'b'],
          properties: { a: {}, b: { type: 'string' } },
        },
      ],
    },
    y: { type: 'string' },
  },
});

function keptFor(x: unknown, y: unknown = 'y'): string[] {
  validate({ x, y });
  return pickOneOfBranch(validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`);
}

describe('pickOneOfBranch', () => {
  it.each<[string, unknown, string[]]>([
    ['keys of one shape: that shape alone', { a: 1 }, ['/x required']],
    ['keys of one shape: its errors inside the value too', { a: 1, b: 2 }, ['/x/b type']],
    ['no key of any shape: the oneOf alone', { c: 1 }, ['/x oneOf']],
    ['a value no shape fits: the oneOf alone', 1, ['/x oneOf']],
    ['a list: the oneOf alone', [1], ['/x oneOf']],
  ])('%s', (_name, x, expected) => {
    expect(keptFor(x)).toEqual(expected);
  });

  it('leaves errors outside a oneOf alone', () => {
    expect(keptFor('ok')).toEqual([]);
    expect(keptFor('ok', 1)).toEqual(['/y type']);
    expect(keptFor({ a: 1 }, 1)).toEqual(['/x required', '/y type']);
  });
});
