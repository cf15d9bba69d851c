import { CommanderError } from 'commander';
import { buildProgram } from './commands.js';
import { CliError, createProcessOutput } from './output.js';
import type { CliContext } from './context.js';

/** Runs the CLI and returns the exit code: 0 success, 1 failure, 2 usage (and `diff --exit-code` with changes). */
export async function main(argv: string[], context: Partial<CliContext> = {}): Promise<number> {
  const ctx: CliContext = {
    output: context.output ?? createProcessOutput(context.env ?? process.env),
    env: context.env ?? process.env,
    cwd: context.cwd ?? process.cwd(),
    stdin: context.stdin ?? process.stdin,
    signal: context.signal,
  };
  let exitCode = 0;
  const program = buildProgram(ctx, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed help or the usage problem.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      ctx.output.err(`${ctx.output.color.red('error:')} ${error.message}`);
      return error.exitCode;
    }
    ctx.output.err(`${ctx.output.color.red('error:')} ${describeUnexpected(error)}`);
    if (ctx.env.IDP_DEBUG) ctx.output.err(String((error as Error).stack));
    return 1;
  }
}

function describeUnexpected(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return `cannot connect to the database: ${error.message}`;
    return error.message.split('\n')[0];
  }
  return String(error);
}
