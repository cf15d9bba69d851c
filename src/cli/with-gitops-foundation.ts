import type { Config } from '../config/types.js';
import { ApplyConflictError } from '../gitops/index.js';
import type { Foundation } from '../app.js';
import type { CliContext } from './context.js';
import { loadCommandConfig } from './load-command-config.js';
import { openCommandFoundation } from './open-command-foundation.js';
import { CliError } from './output.js';
import { locateConflicts } from './locate-conflicts.js';

/**
 * The common frame of `idp diff` and `idp apply`: load the config, open and
 * migrate its storage, run the command, close. Collisions with
 * database-managed objects become one stderr line each (file:line:column,
 * config path and the database side) and exit code 1.
 */
export async function withGitopsFoundation(
  ctx: CliContext,
  configFlag: string | undefined,
  run: (foundation: Foundation, config: Config) => Promise<number>,
): Promise<number> {
  const config = await loadCommandConfig(ctx, configFlag, [
    'database',
    'users',
    'clients',
    'terms',
    'identity_providers',
  ]);
  const foundation = await openCommandFoundation(config, ctx.cwd);
  try {
    return await run(foundation, config);
  } catch (error) {
    if (!(error instanceof ApplyConflictError)) throw error;
    for (const line of await locateConflicts(config.file, ctx.cwd, error.conflicts))
      ctx.output.err(ctx.output.color.red(line));
    const count = error.conflicts.length;
    throw new CliError(
      `the config collides with database-managed objects (${count} ${count === 1 ? 'problem' : 'problems'}); nothing was applied`,
    );
  } finally {
    await foundation.storage.close();
  }
}
