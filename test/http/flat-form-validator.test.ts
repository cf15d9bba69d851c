import fc from 'fast-check';
import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import { compileInputValidator, type InputValidator } from '../../src/http/flat-form-validator.js';
import { introspectRoute, revokeRoute, tokenRoute } from '../../src/http/routes/token-routes.js';

/** hapi's route options in create-server.ts. */
const options = { abortEarly: false };

const flatSchemas: Record<string, Joi.ObjectSchema> = {
  'optional, empty allowed, unknown keys allowed': Joi.object({
    a: Joi.string().allow(''),
    b: Joi.string().allow('').description('x'),
  }).unknown(true),
  'required, unknown keys forbidden': Joi.object({
    a: Joi.string().required(),
    b: Joi.string().allow('').required().label('Bee'),
  }),
  'empty not allowed, unknown keys allowed': Joi.object({
    a: Joi.string(),
    b: Joi.string().optional().description('y'),
  }).unknown(true),
  'mixed, annotated, unknown keys explicitly forbidden': Joi.object({
    a: Joi.string().allow('').meta({ m: 1 }).note('n').example('e'),
    b: Joi.string(),
  })
    .unknown(false)
    .label('Form')
    .description('d'),
  'the token endpoint': tokenRoute.validate!.payload as Joi.ObjectSchema,
};

const keysOf = (schema: Joi.ObjectSchema): string[] =>
  Object.keys((schema.describe() as { keys: Record<string, unknown> }).keys);

const fieldValue = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const extraKey = fc.oneof(
  fc.constantFrom('z', 'client_id', 'constructor', 'toString', '__proto__'),
  fc.string({ maxLength: 6 }),
);

/** A parsed form or query: node's querystring (and hapi's parsers) build null-prototype objects. */
function inputFor(schema: Joi.ObjectSchema): fc.Arbitrary<unknown> {
  const object = fc
    .record({
      known: fc.array(fc.tuple(fc.constantFrom(...keysOf(schema)), fieldValue), { maxLength: 8 }),
      extra: fc.array(fc.tuple(extraKey, fieldValue), { maxLength: 2 }),
      nullPrototype: fc.boolean(),
    })
    .map(({ known, extra, nullPrototype }) => {
      const input: Record<string, unknown> = nullPrototype ? Object.create(null) : {};
      for (const [key, value] of [...known, ...extra]) {
        // On an ordinary object `__proto__` is the prototype, not a field; no parser hapi uses makes one.
        if (key === '__proto__' && !nullPrototype) continue;
        input[key] = value;
      }
      return input;
    });
  const other = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    fc.integer(),
    fc.boolean(),
  );
  return fc.oneof({ weight: 5, arbitrary: object }, { weight: 1, arbitrary: other });
}

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };
const outcomeOf = (promise: Promise<unknown>): Promise<Outcome> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, message: (error as Error).message }),
  );

describe('compileInputValidator', () => {
  it.each(Object.entries(flatSchemas))('decides as joi does, on a flat schema (%s) (fast-check)', async (_, schema) => {
    const compiled = compileInputValidator(schema);
    expect(compiled).toBeTypeOf('function');
    let fastPathTaken = 0;
    await fc.assert(
      fc.asyncProperty(inputFor(schema), async (value) => {
        const [mine, joi] = await Promise.all([
          outcomeOf((compiled as InputValidator)(value, options)),
          outcomeOf(schema.validateAsync(value, options)),
        ]);
        expect(mine.ok).toBe(joi.ok);
        if (mine.ok && joi.ok) {
          expect(mine.value).toStrictEqual(joi.value);
          // joi always answers a copy: the input itself coming back means the fast check accepted it.
          if (mine.value === value && typeof value === 'object') fastPathTaken++;
        } else {
          expect(mine).toEqual(joi);
        }
      }),
      { numRuns: 300 },
    );
    // Otherwise the property only ever compared joi with itself.
    expect(fastPathTaken).toBeGreaterThan(0);
  });

  it.each([
    ['a key with max()', Joi.object({ a: Joi.string().max(5) })],
    ['a key with valid()', Joi.object({ a: Joi.string().valid('x') })],
    ['a key with pattern()', Joi.object({ a: Joi.string().pattern(/x/) })],
    ['a key allowing a value other than the empty string', Joi.object({ a: Joi.string().allow('x') })],
    ['a key allowing null', Joi.object({ a: Joi.string().allow(null) })],
    ['a key with a default', Joi.object({ a: Joi.string().default('x') })],
    ['a key that trims', Joi.object({ a: Joi.string().trim() })],
    ['a key that turns the empty string into undefined', Joi.object({ a: Joi.string().empty('') })],
    ['a forbidden key', Joi.object({ a: Joi.string().forbidden() })],
    ['a stripped key', Joi.object({ a: Joi.string().strip() })],
    ['a strict key', Joi.object({ a: Joi.string().strict() })],
    ['a number key', Joi.object({ a: Joi.number() })],
    ['a nested object key', Joi.object({ a: Joi.object({ b: Joi.string() }) })],
    ['an object with key patterns', Joi.object({ a: Joi.string() }).pattern(/^x/, Joi.string())],
    ['an object with a rename', Joi.object({ a: Joi.string() }).rename('b', 'a')],
    ['an object with a key dependency', Joi.object({ a: Joi.string(), b: Joi.string() }).or('a', 'b')],
    ['an object with its own preferences', Joi.object({ a: Joi.string() }).prefs({ presence: 'required' })],
    ['an object without keys', Joi.object()],
    ['a non-object schema', Joi.string()],
  ])('leaves a schema with %s to joi', (_, schema) => {
    expect(compileInputValidator(schema)).toBe(schema);
  });

  it.each([
    ['token', tokenRoute],
    ['revocation', revokeRoute],
    ['introspection', introspectRoute],
  ])('takes the fast path for the %s endpoint', (_, route) => {
    expect(compileInputValidator(route.validate!.payload!)).toBeTypeOf('function');
  });
});
