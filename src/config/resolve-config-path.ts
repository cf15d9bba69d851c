import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/cli.md: `-c/--config`, else `$IDP_CONFIG`, else `./idp.yaml` when it
 * exists, else null (built-in defaults). An explicit flag or variable is
 * returned even when the file is missing, so that the load reports it.
 */
export function resolveConfigPath(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): string | null {
  if (flag !== undefined && flag !== '') return flag;
  if (env.IDP_CONFIG !== undefined && env.IDP_CONFIG !== '') return env.IDP_CONFIG;
  return existsSync(path.join(cwd, 'idp.yaml')) ? 'idp.yaml' : null;
}
