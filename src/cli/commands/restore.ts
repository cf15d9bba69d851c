import path from 'node:path';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { restoreBackup } from '../../backup/index.js';

/**
 * `idp restore FILE`: a backup into the empty database of the config (either
 * engine), before the first `idp serve` on it.
 */
export async function runRestore(ctx: CliContext, file: string, opts: { config?: string }): Promise<number> {
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'security']);
  const { storage } = await openCommandFoundation(config, ctx.cwd, { migrate: false });
  try {
    const summary = await restoreBackup(
      { storage, configuredSecret: config.security.secret },
      path.resolve(ctx.cwd, file),
    );
    const { header } = summary;
    ctx.output.out(
      `${ctx.output.color.green('restored')} ${summary.rows} rows of ${summary.tables} tables from ${file} (${header.engine}, ${header.created_at}, migration ${header.migration})`,
    );
    if (summary.migratedAfter.length > 0)
      ctx.output.out(`then applied ${summary.migratedAfter.length} migration(s): ${summary.migratedAfter.join(', ')}`);
    return 0;
  } catch (error) {
    // A BackupError is already one line; anything else (the database) is told by its first.
    throw new CliError(`${file}: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await storage.close();
  }
}
