import type { ConfigPath } from '../config-path.js';
import type { ConfigFile } from '../file-types.js';

/** What a rule reports; the loader adds the file, line and column. */
export interface RuleProblem {
  severity: 'error' | 'warning';
  path: ConfigPath;
  message: string;
}

/**
 * A cross-field check the schema cannot express. It reads the shaped file
 * and returns its problems; it never throws on a well-shaped file.
 */
export type ConfigRule = (config: ConfigFile) => RuleProblem[];

export const error = (path: ConfigPath, message: string): RuleProblem => ({ severity: 'error', path, message });
export const warning = (path: ConfigPath, message: string): RuleProblem => ({ severity: 'warning', path, message });
