import type { CliContext } from '../../context.js';
import type { ListUsersParams } from '../../admin/admin-api-types.js';
import type { ManagedBy, UserRole } from '../../../model/index.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderUserList } from '../../admin/render-user-list.js';
import { lockedSubs } from '../../admin/locked-subs.js';

export interface UsersListOptions extends ServerOptions {
  query?: string;
  page?: number;
  pageSize?: number;
  includeDeleted?: boolean;
  managedBy?: ManagedBy;
  role?: UserRole;
  json?: boolean;
}

/**
 * `idp admin users list`: GET /api/admin/users with the filters of
 * docs/http-api.md, "Admin API". Only the flags given are sent, so the server's defaults (page 1,
 * 20 per page, no deleted users) apply otherwise and its bounds are the judge.
 */
export async function runUsersList(ctx: CliContext, opts: UsersListOptions): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const params: ListUsersParams = {
    query: opts.query,
    page: opts.page,
    page_size: opts.pageSize,
    include_deleted: opts.includeDeleted ? true : undefined,
    managed_by: opts.managedBy,
    role: opts.role,
  };
  const answer = await client.listUsers(params);
  if (opts.json) printJson(ctx.output, answer);
  else {
    const locked = await lockedSubs(client, answer.users);
    for (const line of renderUserList(ctx.output, answer, locked)) ctx.output.out(line);
  }
  return 0;
}
