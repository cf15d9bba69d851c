import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { renderTable, type TableColumn } from '../admin/render-table.js';
import { createUserTerms, type TermVersionStatus } from '../../accounts/index.js';
import { createEventLog } from '../../events/index.js';

const columns: TableColumn<TermVersionStatus>[] = [
  { header: 'TERM', cell: (row) => row.id, shrinkTo: 16 },
  { header: 'VERSION', cell: (row) => row.version, shrinkTo: 12 },
  { header: 'REQUIRED', cell: (row) => (row.required ? 'yes' : 'no') },
  { header: 'ACCEPTED', cell: (row) => String(row.accepted), align: 'right' },
  { header: 'PENDING', cell: (row) => String(row.pending), align: 'right' },
];

/**
 * `idp terms status [--id ID]`: per term that `idp apply` wrote, at its
 * current version, how many live users accepted it and how many have still to
 * (straight from the database, like `idp jobs list`; the same counts as
 * GET /api/admin/terms).
 */
export async function runTermsStatus(
  ctx: CliContext,
  opts: { config?: string; id?: string; json?: boolean },
): Promise<number> {
  const config = await loadCommandConfig(ctx, opts.config);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
  try {
    const terms = createUserTerms({ storage, events: createEventLog({ storage, clock }), clock });
    const all = await terms.status();
    const rows = all.filter((row) => opts.id === undefined || row.id === opts.id);
    if (opts.id !== undefined && rows.length === 0) {
      throw new CliError(
        `no term with id "${opts.id}" in the database (terms: ${all.map((row) => row.id).join(', ') || 'none'}; run idp apply after editing the file)`,
      );
    }
    if (opts.json) ctx.output.out(JSON.stringify({ terms: rows }, null, 2));
    else if (rows.length === 0) ctx.output.out('no terms (the config declares none, or idp apply has not run)');
    else for (const line of renderTable(ctx.output, columns, rows)) ctx.output.out(line);
    return 0;
  } finally {
    await storage.close();
  }
}
