import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { connectDatabase } from '../../storage/knex/connect.js';
import { migrateUp, migrationStatus } from '../../storage/knex/migrate.js';

export async function runMigrate(ctx: CliContext, action: string, opts: { config?: string }): Promise<number> {
  if (action !== 'up' && action !== 'status') throw new CliError(`unknown migrate action "${action}" (expected up or status)`, 2);
  const config = await loadCommandConfig(ctx, opts.config);
  const db = connectDatabase(config.database);
  try {
    if (action === 'status') {
      const status = await migrationStatus(db);
      for (const name of status.applied) ctx.output.out(`${ctx.output.color.green('applied')}  ${name}`);
      for (const name of status.pending) ctx.output.out(`${ctx.output.color.yellow('pending')}  ${name}`);
      return 0;
    }
    const applied = await migrateUp(db);
    ctx.output.out(applied.length === 0 ? 'database is up to date' : `applied ${applied.length} migration(s): ${applied.join(', ')}`);
    return 0;
  } finally {
    await db.destroy();
  }
}
