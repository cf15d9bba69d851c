import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatProblem, type ConfigProblem } from '../config/index.js';
import { formatConfigPath } from '../config/config-path.js';
import { parseYaml } from '../config/parse-yaml.js';
import { createSourceLocator, type SourceLocator } from '../config/source-locator.js';
import type { ApplyConflict } from '../gitops/index.js';

/**
 * Apply's collisions as config problems with file:line:column, the way
 * `idp validate` prints them (`idp.yaml:14:5: users[2]: e-mail "…" is
 * already used by database-managed user "…" <…>`). The file is read again
 * only to find the lines; when that fails the problem has no line.
 */
export async function locateConflicts(file: string | null, cwd: string, conflicts: ApplyConflict[]): Promise<string[]> {
  const locate = file ? await locatorFor(file) : null;
  const shown = file ? displayPath(file, cwd) : null;
  return conflicts.map((conflict) => {
    const position = locate?.(conflict.path) ?? null;
    const problem: ConfigProblem = {
      severity: 'error',
      file: shown,
      line: position?.line ?? null,
      column: position?.column ?? null,
      path: formatConfigPath(conflict.path),
      message: conflict.message,
    };
    return formatProblem(problem);
  });
}

async function locatorFor(file: string): Promise<SourceLocator | null> {
  try {
    const parsed = parseYaml(await readFile(file, 'utf8'), file);
    return parsed.ok ? createSourceLocator(parsed.parsed) : null;
  } catch {
    return null;
  }
}

/** Relative to the working directory when the file is below it, as the operator typed it. */
function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
