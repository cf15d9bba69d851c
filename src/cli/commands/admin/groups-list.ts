import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderGroupList } from '../../admin/render-group-list.js';

/** `idp admin groups list`: GET /api/admin/groups, every group of the config file with its member count. */
export async function runGroupsList(ctx: CliContext, opts: ServerOptions & { json?: boolean }): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.listGroups();
  if (opts.json) printJson(ctx.output, answer);
  else for (const line of renderGroupList(ctx.output, answer.groups)) ctx.output.out(line);
  return 0;
}
