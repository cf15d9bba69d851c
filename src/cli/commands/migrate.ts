import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';

export async function runMigrate(ctx: CliContext, action: string, opts: { config?: string }): Promise<number> {
  if (action !== 'up' && action !== 'status')
    throw new CliError(`unknown migrate action "${action}" (expected up or status)`, 2);
  const config = await loadCommandConfig(ctx, opts.config, ['database']);
  const { storage } = await openCommandFoundation(config, ctx.cwd, { migrate: false });
  try {
    if (action === 'status') {
      const status = await storage.migrationStatus();
      for (const name of status.applied) ctx.output.out(`${ctx.output.color.green('applied')}  ${name}`);
      for (const name of status.pending) ctx.output.out(`${ctx.output.color.yellow('pending')}  ${name}`);
      return 0;
    }
    const applied = await storage.migrate();
    ctx.output.out(
      applied.length === 0 ? 'database is up to date' : `applied ${applied.length} migration(s): ${applied.join(', ')}`,
    );
    return 0;
  } finally {
    await storage.close();
  }
}
