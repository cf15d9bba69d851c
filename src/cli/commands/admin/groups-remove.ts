import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { changeUser } from '../../admin/explain-not-editable.js';
import { printJson } from '../../admin/print-json.js';

/**
 * `idp admin groups remove ID SUB|EMAIL`: DELETE
 * /api/admin/groups/{id}/members/{sub}, which removes the membership the
 * admin API gave. `--json` prints the user's groups afterwards.
 */
export async function runGroupsRemove(
  ctx: CliContext,
  groupId: string,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  await changeUser(user, () => client.removeGroupMember(groupId, user.sub));
  if (opts.json) printJson(ctx.output, await client.userGroups(user.sub));
  else ctx.output.out(`removed ${user.email} (${user.sub}) from group ${groupId}`);
  return 0;
}
