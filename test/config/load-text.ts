import { formatProblem, loadConfigText, type LoadResult } from '../../src/config/index.js';

/** Joins lines into a YAML text, so that tests show exact line and column numbers. */
export const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;

export const validHash =
  '$argon2id$v=19$m=65536,p=4,t=3$G7tqMBxItrk7WUP/2u1j2g$3epG+jtFO5wWE1MHXw/3nykJVvhEmdPWNn/R82tFo2s';
export const secretLine = 'security: { secret: "0123456789abcdef0123456789abcdef" }';

export function load(text: string, env: Record<string, string | undefined> = {}): LoadResult {
  return loadConfigText(text, { file: 'idp.yaml', env, cwd: '/srv/idp' });
}

/** Every problem as its one printed line. */
export function problemLines(text: string, env: Record<string, string | undefined> = {}): string[] {
  const result = load(text, env);
  return (result.ok ? result.warnings : result.problems).map(formatProblem);
}

export function errorLines(text: string, env: Record<string, string | undefined> = {}): string[] {
  const result = load(text, env);
  return result.ok ? [] : result.problems.filter((p) => p.severity === 'error').map(formatProblem);
}
