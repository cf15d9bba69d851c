import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { printJson } from '../../admin/print-json.js';

/**
 * `idp admin users reset-second-factors SUB|EMAIL`: for a user who lost
 * their device, DELETE /api/admin/users/{sub}/second-factors removes the
 * authenticator app, the recovery codes and the passkeys and ends the
 * user's sessions.
 */
export async function runUsersResetSecondFactors(
  ctx: CliContext,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  await client.resetSecondFactors(user.sub);
  if (opts.json) {
    printJson(ctx.output, { user: (await client.getUser(user.sub)).user });
    return 0;
  }
  ctx.output.out(
    `removed the second factors of ${user.sub} (${user.email}): authenticator app, recovery codes and passkeys; its sessions have ended`,
  );
  if (user.second_factor_required)
    ctx.output.out(
      ctx.output.color.dim('a second factor is required of this user: the next sign-in asks to register one'),
    );
  return 0;
}
