import { Command, Option } from 'commander';
import type { CliContext } from './context.js';
import { runMigrate } from './commands/migrate.js';

/**
 * Every command of the `idp` binary and its options, in one table. Each
 * action is a thin parser around a function in ./commands/ that returns the
 * exit code and writes through ctx.output.
 */
export function buildProgram(ctx: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command('idp')
    .description('A CLI-driven GitOps identity server (OpenID Connect provider)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.output.out(s.trimEnd()),
      writeErr: (s) => ctx.output.err(s.trimEnd()),
    })
    .showHelpAfterError(false);

  const run = (fn: () => Promise<number>) => async () => setExitCode(await fn());
  const configOption = () => new Option('-c, --config <file>', 'config file (default: $IDP_CONFIG, else ./idp.yaml)');

  program
    .command('migrate')
    .description('run database migrations (serve migrates on start)')
    .argument('[action]', 'up | status', 'up')
    .addOption(configOption())
    .action((action: string, opts: { config?: string }) => run(() => runMigrate(ctx, action, opts))());

  return program;
}
