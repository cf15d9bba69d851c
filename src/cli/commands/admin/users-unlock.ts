import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';

/**
 * `idp admin users unlock SUB|EMAIL`: POST /api/admin/users/{sub}/unlock,
 * which clears the failed sign-in attempts counted against the account.
 */
export async function runUsersUnlock(ctx: CliContext, subOrEmail: string, opts: ServerOptions): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  await client.unlockUser(user.sub);
  ctx.output.out(`unlocked ${user.email} (${user.sub}): its failed sign-in attempts are cleared`);
  return 0;
}
