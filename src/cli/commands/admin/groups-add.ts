import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { changeUser } from '../../admin/explain-not-editable.js';
import { printJson } from '../../admin/print-json.js';

/**
 * `idp admin groups add ID SUB|EMAIL`: PUT /api/admin/groups/{id}/members/{sub}.
 * Idempotent like the API: adding a member again succeeds and changes
 * nothing. `--json` prints the user's groups afterwards (the PUT has no body).
 */
export async function runGroupsAdd(
  ctx: CliContext,
  groupId: string,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  await changeUser(user, () => client.addGroupMember(groupId, user.sub));
  if (opts.json) printJson(ctx.output, await client.userGroups(user.sub));
  else ctx.output.out(`${user.email} (${user.sub}) is in group ${groupId}`);
  return 0;
}
