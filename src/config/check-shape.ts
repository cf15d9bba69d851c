import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ConfigFile } from './file-types.js';
import { parseJsonPointer, type ConfigPath } from './config-path.js';
import { describeSchemaError } from './describe-schema-error.js';
import { pickOneOfBranch } from './pick-one-of-branch.js';

export interface ShapeProblem {
  path: ConfigPath;
  target: 'key' | 'value';
  message: string;
}

/** The config file schema: the one source of truth for the file's shape and defaults. */
export const configSchemaUrl = new URL('../../schemas/config.schema.json', import.meta.url);

let compiled: ValidateFunction | null = null;

/**
 * Compiled once per process: compiling the schema costs far more than
 * validating a large file with it.
 */
function configValidator(): ValidateFunction {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(configSchemaUrl, 'utf8')) as object;
  // Union types: server.trust_proxy is true/false, a number of hops or a list of addresses.
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, verbose: true, strict: true, allowUnionTypes: true });
  addFormatsModule.default(ajv, ['uri']);
  compiled = ajv.compile(schema);
  return compiled;
}

/**
 * Phase 3: checks the value against schemas/config.schema.json, reporting
 * every error at once, and fills in the schema's defaults in place (ajv
 * `useDefaults`). When it returns no problem, the value is a ConfigFile.
 */
export function checkShape(value: unknown): { value: ConfigFile; problems: ShapeProblem[] } {
  const validate = configValidator();
  validate(value);
  const problems = withoutEchoesOfTypeErrors(pickOneOfBranch(validate.errors ?? [])).map((error) => {
    const described = describeSchemaError(error);
    const path = parseJsonPointer(error.instancePath, value);
    return {
      path: described.extraSegment === null ? path : [...path, described.extraSegment],
      target: described.target,
      message: described.message,
    };
  });
  return { value: value as ConfigFile, problems };
}

/** A value of the wrong type also fails its enum or bounds; the type error alone says what to fix. */
function withoutEchoesOfTypeErrors(errors: ErrorObject[]): ErrorObject[] {
  const wrongType = new Set(errors.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  if (wrongType.size === 0) return errors;
  return errors.filter((error) => error.keyword === 'type' || !wrongType.has(error.instancePath));
}
