import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderUserList } from '../../admin/render-user-list.js';
import { lockedSubs } from '../../admin/locked-subs.js';

export interface GroupsMembersOptions extends ServerOptions {
  page?: number;
  pageSize?: number;
  json?: boolean;
}

/**
 * `idp admin groups members ID`: GET /api/admin/groups/{id}/members, the
 * group's live members from every source as the `users list` table. Only
 * the flags given are sent: the server's defaults and bounds apply.
 */
export async function runGroupsMembers(ctx: CliContext, groupId: string, opts: GroupsMembersOptions): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.listGroupMembers(groupId, { page: opts.page, page_size: opts.pageSize });
  if (opts.json) printJson(ctx.output, answer);
  else if (answer.pagination.total === 0) ctx.output.out(`group ${groupId} has no members`);
  else {
    const locked = await lockedSubs(client, answer.users);
    for (const line of renderUserList(ctx.output, answer, locked)) ctx.output.out(line);
  }
  return 0;
}
