import type { ErrorObject } from 'ajv/dist/2020.js';
import { didYouMean } from './did-you-mean.js';

/**
 * One ajv error → a plain-language message, and whether it points at a key
 * (an unknown key) or at a value. The messages name what was expected in the
 * words an operator uses ("a list", "true or false"), not JSON Schema terms.
 */
export function describeSchemaError(error: ErrorObject): {
  message: string;
  extraSegment: string | null;
  target: 'key' | 'value';
} {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      return { message: `unknown key "${key}"${didYouMean(key, known)}`, extraSegment: key, target: 'key' };
    }
    case 'required':
      return {
        message: `missing required key "${String(params.missingProperty)}"`,
        extraSegment: null,
        target: 'value',
      };
    case 'type':
      return {
        message: `must be ${describeTypes(String(params.type))}, not ${describeValue(error.data)}`,
        extraSegment: null,
        target: 'value',
      };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      // A string is not repeated (it may be an expanded secret); the suggestion names an allowed value.
      const written =
        typeof error.data === 'string' ? didYouMean(error.data, allowed) : `, not ${describeValue(error.data)}`;
      return { message: `must be one of ${allowed.join(', ')}${written}`, extraSegment: null, target: 'value' };
    }
    case 'format':
      return {
        message:
          params.format === 'uri'
            ? 'must be an absolute URL (with a scheme, such as https://)'
            : `must be a valid ${String(params.format)}`,
        extraSegment: null,
        target: 'value',
      };
    case 'minLength':
      return {
        message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`,
        extraSegment: null,
        target: 'value',
      };
    case 'maxLength':
      return {
        message: `must be at most ${String(params.limit)} characters long`,
        extraSegment: null,
        target: 'value',
      };
    case 'minimum':
      return { message: `must be at least ${String(params.limit)}`, extraSegment: null, target: 'value' };
    case 'maximum':
      return { message: `must be at most ${String(params.limit)}`, extraSegment: null, target: 'value' };
    case 'exclusiveMinimum':
      return { message: `must be greater than ${String(params.limit)}`, extraSegment: null, target: 'value' };
    case 'minItems':
      return { message: `must list at least ${String(params.limit)} item(s)`, extraSegment: null, target: 'value' };
    case 'minProperties':
      return { message: `must have at least ${String(params.limit)} entry(ies)`, extraSegment: null, target: 'value' };
    case 'uniqueItems':
      return {
        message: `must not list the same value twice (items ${String(params.j)} and ${String(params.i)} are equal)`,
        extraSegment: null,
        target: 'value',
      };
    case 'pattern':
      return { message: describePattern(String(params.pattern), error.data), extraSegment: null, target: 'value' };
    case 'oneOf':
      // Reached only when no one shape stands out (./pick-one-of-branch.ts): the value is none of them.
      return {
        message: `must be written as one of ${(error.schema as object[]).map(describeShape).join(' or ')}`,
        extraSegment: null,
        target: 'value',
      };
    default:
      return { message: error.message ?? `fails the ${error.keyword} check`, extraSegment: null, target: 'value' };
  }
}

/** The schema's patterns in words; the schema test checks that every pattern of the schema is here. */
export const patternMeanings: Partial<Record<string, (value: unknown) => string>> = {
  '^[a-z0-9][a-z0-9._-]{0,63}$': (value) =>
    `must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit${whyNotGroupId(value)}`,
  '^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9][A-Za-z0-9._-]*$': () =>
    'must be a GitHub team written organization/team-slug (such as acme/sre)',
  '^/': () => 'must be a path starting with / (such as /admin)',
  '^[A-Za-z0-9-]{1,64}$': () =>
    'must be a header name: letters, digits and -, 1–64 characters (such as X-Webauth-User)',
};

function describePattern(pattern: string, value: unknown): string {
  return patternMeanings[pattern]?.(value) ?? `must match the pattern ${pattern}`;
}

/** What is wrong with a group id, without repeating it (a message never repeats a string value). */
function whyNotGroupId(value: unknown): string {
  const text = typeof value === 'string' ? value : '';
  // Code points, as the schema's patterns (ajv's `u` flag) count them.
  const length = Array.from(text).length;
  if (length === 0) return ' (it is empty)';
  if (length > 64) return ` (it is ${length} characters long)`;
  if (/\s/.test(text)) return ' (it contains white space)';
  if (/[A-Z]/.test(text)) return ' (it contains upper-case letters)';
  if (/^[._-]/.test(text)) return ` (it starts with '${text[0]}')`;
  return ' (it contains other characters)';
}

/** A oneOf shape as its keys, `{ provider, team }`, or its type. */
function describeShape(shape: { type?: string; properties?: object }): string {
  return shape.properties ? `{ ${Object.keys(shape.properties).join(', ')} }` : describeTypes(String(shape.type));
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping (key: value)',
  null: 'null',
};

function describeTypes(types: string): string {
  return types
    .split(',')
    .map((type) => typeNames[type] ?? type)
    .join(' or ');
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  // The text itself is left out: it may be an expanded ${SECRET}.
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return `the number ${value}`;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are answered above: a boolean is left
  return String(value);
}
