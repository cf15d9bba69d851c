import path from 'node:path';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { writeBackup } from '../../backup/index.js';

/**
 * `idp backup --output FILE`: one consistent snapshot of the database as it
 * is (not migrated first: a backup taken before an upgrade restores at its
 * own level).
 */
export async function runBackup(ctx: CliContext, opts: { config?: string; output: string }): Promise<number> {
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'security']);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd, { migrate: false });
  const file = path.resolve(ctx.cwd, opts.output);
  try {
    const summary = await writeBackup({ storage, clock, configuredSecret: config.security.secret }, file);
    ctx.output.out(
      `${ctx.output.color.green('backed up')} ${summary.rows} rows of ${summary.tables} tables at migration ${summary.migration} to ${opts.output} (${summary.bytes} bytes)`,
    );
    return 0;
  } catch (error) {
    // A BackupError is already one line; anything else (the disk, the database) is told by its first.
    throw new CliError(`${opts.output}: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await storage.close();
  }
}
