import type { CliContext } from './context.js';
import { CliError, type Output } from './output.js';
import { formatProblem, loadConfig, resolveConfigPath, type Config, type ConfigProblem } from '../config/index.js';

/**
 * The config of a command that needs one (migrate, diff, apply, serve):
 * resolved from -c, $IDP_CONFIG or ./idp.yaml, loaded, every problem printed
 * as one line on stderr, and a one-line failure when invalid. Warnings are
 * printed only when they concern the command: those under one of the
 * `concerns` groups (every group when absent, as for serve), and those about
 * the file as a whole.
 */
export async function loadCommandConfig(
  ctx: CliContext,
  flag: string | undefined,
  concerns?: readonly string[],
): Promise<Config> {
  const file = resolveConfigPath(flag, ctx.env, ctx.cwd);
  const result = await loadConfig({ file, env: ctx.env, cwd: ctx.cwd });
  const problems = result.ok
    ? result.warnings.filter((w) => concerns === undefined || concernsOneOf(w.path, concerns))
    : result.problems;
  for (const problem of problems) ctx.output.err(colorProblem(ctx.output, problem));
  if (result.ok) return result.config;
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  throw new CliError(
    `${file ?? 'built-in defaults'}: configuration is invalid (${errors} ${errors === 1 ? 'problem' : 'problems'})`,
    1,
  );
}

function concernsOneOf(path: string, groups: readonly string[]): boolean {
  return path === '' || groups.includes(path.split(/[.[]/, 1)[0]);
}

/** The problem's one line (formatProblem), red for an error and yellow for a warning on a TTY. */
export function colorProblem(output: Output, problem: ConfigProblem): string {
  const line = formatProblem(problem);
  return problem.severity === 'error' ? output.color.red(line) : output.color.yellow(line);
}
