import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { printJson } from '../../admin/print-json.js';

/**
 * `idp admin users restore SUB|EMAIL`: POST /api/admin/users/{sub}/restore,
 * which undoes a soft delete within account_deletion.grace_period_days. An
 * e-mail finds the deleted user when no live one has it (findUser).
 */
export async function runUsersRestore(
  ctx: CliContext,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.restoreUser((await findUser(client, subOrEmail)).sub);
  if (opts.json) {
    printJson(ctx.output, answer);
    return 0;
  }
  const { user } = answer;
  ctx.output.out(`restored user ${user.sub} (${user.email}): it can sign in again`);
  return 0;
}
