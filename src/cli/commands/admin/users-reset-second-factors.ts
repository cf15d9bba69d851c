import type { CliContext } from '../../context.js';
import { AdminApiError } from '../../admin/admin-api-error.js';
import type { AdminClient } from '../../admin/admin-client.js';
import type { AdminUser } from '../../admin/admin-api-types.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';

/**
 * `idp admin users reset-second-factors SUB|EMAIL`: for a user who lost
 * their device, DELETE /api/admin/users/{sub}/second-factors removes the
 * authenticator app, the recovery codes and the passkeys and ends the
 * user's sessions. The user is named by sub, or by e-mail when no sub
 * matches (an exact, case-insensitive match; a live user before a deleted one).
 */
export async function runUsersResetSecondFactors(ctx: CliContext, who: string, opts: ServerOptions & { json?: boolean }): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, who);
  await client.resetSecondFactors(user.sub);
  if (opts.json) {
    printJson(ctx.output, { user: (await client.getUser(user.sub)).user });
    return 0;
  }
  ctx.output.out(`removed the second factors of ${user.sub} (${user.email}): authenticator app, recovery codes and passkeys; its sessions have ended`);
  if (user.second_factor_required) ctx.output.out(ctx.output.color.dim('a second factor is required of this user: the next sign-in asks to register one'));
  return 0;
}

async function findUser(client: AdminClient, who: string): Promise<AdminUser> {
  try {
    return (await client.getUser(who)).user;
  } catch (error) {
    if (!(error instanceof AdminApiError) || error.code !== 'USER_NOT_FOUND' || !who.includes('@')) throw error;
  }
  const { users } = await client.listUsers({ query: who, include_deleted: true, page_size: 100 });
  const matches = users.filter((u) => u.email.toLowerCase() === who.toLowerCase());
  const user = matches.find((u) => u.deleted_at === null) ?? matches[0];
  if (!user) throw new AdminApiError(404, { code: 'USER_NOT_FOUND', message: `User not found: no sub or e-mail is ${who}.` });
  return user;
}
