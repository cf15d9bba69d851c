import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { colorProblem } from '../load-command-config.js';
import { loadConfig, resolveConfigPath, type ConfigProblem } from '../../config/index.js';

export const validateFormats = ['text', 'json', 'github'] as const;
export type ValidateFormat = (typeof validateFormats)[number];

/**
 * `idp validate [-c FILE] [--format text|json|github]`: every problem of the
 * file in one run. Exit 0 valid (warnings allowed), 1 invalid, 2 usage.
 */
export async function runValidate(ctx: CliContext, opts: { config?: string; format?: string }): Promise<number> {
  const format = opts.format ?? 'text';
  if (!isValidateFormat(format))
    throw new CliError(`unknown --format "${format}" (expected ${validateFormats.join(', ')})`, 2);
  const file = resolveConfigPath(opts.config, ctx.env, ctx.cwd);
  const result = await loadConfig({ file, env: ctx.env, cwd: ctx.cwd });
  const problems = result.ok ? result.warnings : result.problems;
  const errors = problems.filter((p) => p.severity === 'error');
  const warnings = problems.filter((p) => p.severity === 'warning');
  const report = { file, errors, warnings };
  if (format === 'json') printJson(ctx, report);
  else if (format === 'github') printGithub(ctx, report);
  else printText(ctx, report);
  return errors.length === 0 ? 0 : 1;
}

function isValidateFormat(format: string): format is ValidateFormat {
  return (validateFormats as readonly string[]).includes(format);
}

interface Report {
  file: string | null;
  errors: ConfigProblem[];
  warnings: ConfigProblem[];
}

function printText(ctx: CliContext, report: Report): void {
  for (const problem of [...report.errors, ...report.warnings].sort(byPosition))
    ctx.output.err(colorProblem(ctx.output, problem));
  ctx.output[report.errors.length === 0 ? 'out' : 'err'](summary(ctx, report));
}

function summary(ctx: CliContext, report: Report): string {
  const { color } = ctx.output;
  const name = report.file ?? 'no config file (-c, $IDP_CONFIG, ./idp.yaml); the built-in defaults';
  const warnings = report.warnings.length === 0 ? '' : ` (${count(report.warnings.length, 'warning')})`;
  if (report.errors.length === 0) return `${name}: ${color.green('valid')}${warnings}`;
  return `${name}: ${color.red('invalid')}: ${count(report.errors.length, 'error')}${report.warnings.length === 0 ? '' : `, ${count(report.warnings.length, 'warning')}`}`;
}

/** Stable machine-readable output: the same keys in the same order, problems in file order. */
function printJson(ctx: CliContext, report: Report): void {
  const plain = (p: ConfigProblem) => ({
    file: p.file,
    line: p.line,
    column: p.column,
    path: p.path,
    message: p.message,
  });
  ctx.output.out(
    JSON.stringify(
      {
        valid: report.errors.length === 0,
        file: report.file,
        errors: report.errors.map(plain),
        warnings: report.warnings.map(plain),
      },
      null,
      2,
    ),
  );
}

/** GitHub Actions workflow commands: each problem becomes an annotation on its line of the file. */
function printGithub(ctx: CliContext, report: Report): void {
  for (const problem of [...report.errors, ...report.warnings].sort(byPosition)) {
    const properties = [
      problem.file === null ? null : `file=${escapeProperty(problem.file)}`,
      problem.line === null ? null : `line=${problem.line}`,
      problem.column === null ? null : `col=${problem.column}`,
      `title=${escapeProperty(problem.path === '' ? 'idp config' : problem.path)}`,
    ].filter((p) => p !== null);
    ctx.output.out(`::${problem.severity} ${properties.join(',')}::${escapeData(problem.message)}`);
  }
  ctx.output.out(summary(ctx, report));
}

// The escaping of @actions/core (toCommandValue/escapeData/escapeProperty).
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function byPosition(a: ConfigProblem, b: ConfigProblem): number {
  const order = (n: number | null) => n ?? Number.MAX_SAFE_INTEGER;
  return order(a.line) - order(b.line) || order(a.column) - order(b.column);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
