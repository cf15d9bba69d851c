/**
 * The config model. A YAML file (schemas/config.schema.json) flows through
 * phases with one job each:
 *
 *   read-config-file (16 MiB at most) → decode-config-text (UTF-8)
 *   → parse-yaml (positions; check-aliases, to-plain-value)
 *   → interpolate-env (${NAME}, ${NAME:-default})
 *   → check-shape (ajv, all errors, schema defaults) → rules/ (cross-field
 *   checks) → normalize-config (the runtime Config of ./types.ts)
 *
 * Every problem is a ConfigProblem with file, line, column and config path;
 * the load returns a Config or the complete list of problems, never throws
 * on bad input.
 */
export { loadConfig, loadConfigText, type LoadOptions } from './load-config.js';
export { formatProblem, type ConfigProblem, type LoadResult } from './problem.js';
export { resolveConfigPath } from './resolve-config-path.js';
export type { Config } from './types.js';
export { logoHref, parseColour, type Rgb } from './branding-values.js';
