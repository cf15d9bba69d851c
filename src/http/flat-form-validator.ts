import type Joi from 'joi';

/** hapi's function form of `validate.payload` / `validate.query`. */
export type InputValidator = (value: unknown, options: Joi.AsyncValidationOptions) => Promise<unknown>;

interface FlatField {
  name: string;
  required: boolean;
  allowEmpty: boolean;
}

interface FlatShape {
  fields: FlatField[];
  names: Set<string>;
  allowUnknown: boolean;
}

const ignorableKeyDescription = new Set(['type', 'flags', 'allow', 'metas', 'notes', 'examples']);
const ignorableKeyFlags = new Set(['description', 'label', 'presence']);
const ignorableObjectFlags = new Set(['description', 'label', 'unknown']);

/**
 * The shape of an object schema whose keys are all plain strings (optionally
 * required, optionally allowing ''), or null when the schema uses anything
 * else: only such a shape gets the fast check, because only for it can the
 * check decide exactly what joi decides.
 */
function flatShapeOf(schema: Joi.Schema): FlatShape | null {
  const description = schema.describe() as {
    type: string;
    flags?: Record<string, unknown>;
    keys?: Record<
      string,
      { type: string; flags?: Record<string, unknown>; allow?: unknown[] } & Record<string, unknown>
    >;
  } & Record<string, unknown>;
  if (description.type !== 'object' || !description.keys) return null;
  if (Object.keys(description).some((k) => !['type', 'flags', 'keys'].includes(k))) return null;
  if (Object.keys(description.flags ?? {}).some((f) => !ignorableObjectFlags.has(f))) return null;
  const fields: FlatField[] = [];
  for (const [name, key] of Object.entries(description.keys)) {
    if (key.type !== 'string') return null;
    if (Object.keys(key).some((k) => !ignorableKeyDescription.has(k))) return null;
    const flags = key.flags ?? {};
    if (Object.keys(flags).some((f) => !ignorableKeyFlags.has(f))) return null;
    if (flags.presence !== undefined && flags.presence !== 'required' && flags.presence !== 'optional') return null;
    const allow = key.allow ?? [];
    if (allow.some((v) => v !== '')) return null;
    fields.push({ name, required: flags.presence === 'required', allowEmpty: allow.includes('') });
  }
  return { fields, names: new Set(fields.map((f) => f.name)), allowUnknown: description.flags?.unknown === true };
}

function conforms(shape: FlatShape, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const input = value as Record<string, unknown>;
  for (const field of shape.fields) {
    const v = input[field.name];
    if (v === undefined) {
      if (field.required) return false;
    } else if (typeof v !== 'string' || (v === '' && !field.allowEmpty)) return false;
  }
  if (!shape.allowUnknown) {
    for (const key of Object.keys(input)) if (!shape.names.has(key)) return false;
  }
  return true;
}

/**
 * The route's joi schema stays the one source of truth (and the OpenAPI
 * document's); this only skips joi's machinery for input it would accept
 * unchanged. The protocol form endpoints take flat string fields, and joi
 * cost ~7% of a token request under load (docs/oidc.md, "Performance").
 * Anything the fast check does not accept goes to joi itself, so every
 * error and every conversion is joi's.
 */
export function compileInputValidator(schema: Joi.Schema): Joi.Schema | InputValidator {
  const shape = flatShapeOf(schema);
  if (!shape) return schema;
  return (value, options) => (conforms(shape, value) ? Promise.resolve(value) : schema.validateAsync(value, options));
}
