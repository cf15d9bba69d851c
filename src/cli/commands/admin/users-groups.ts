import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { printJson } from '../../admin/print-json.js';
import { renderUserGroups } from '../../admin/render-group-list.js';

/** `idp admin users groups SUB|EMAIL`: GET /api/admin/users/{sub}/groups, each group with the source of the membership. */
export async function runUsersGroups(
  ctx: CliContext,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.userGroups((await findUser(client, subOrEmail)).sub);
  if (opts.json) printJson(ctx.output, answer);
  else for (const line of renderUserGroups(ctx.output, answer.groups)) ctx.output.out(line);
  return 0;
}
