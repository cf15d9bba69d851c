import type { CliContext } from '../../context.js';
import { CliError } from '../../output.js';
import type { UpdateUserBody } from '../../admin/admin-api-types.js';
import type { UserRole } from '../../../model/index.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { changeUser } from '../../admin/explain-not-editable.js';
import { printJson } from '../../admin/print-json.js';
import { renderUser } from '../../admin/render-user.js';

export interface UsersUpdateOptions extends ServerOptions {
  email?: string;
  role?: UserRole;
  /** --email-verified or --no-email-verified, the flags of `users create`; unset leaves it as it is. */
  emailVerified?: boolean;
  json?: boolean;
}

/** `idp admin users update SUB|EMAIL`: PATCH /api/admin/users/{sub} with only the fields given. */
export async function runUsersUpdate(ctx: CliContext, subOrEmail: string, opts: UsersUpdateOptions): Promise<number> {
  const body: UpdateUserBody = {};
  if (opts.email !== undefined) body.email = opts.email;
  if (opts.role !== undefined) body.role = opts.role;
  if (opts.emailVerified !== undefined) body.email_verified = opts.emailVerified;
  if (Object.keys(body).length === 0)
    throw new CliError('nothing to update: give --email, --role, --email-verified or --no-email-verified', 2);
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  const answer = await changeUser(user, () => client.updateUser(user.sub, body));
  if (opts.json) {
    printJson(ctx.output, answer);
    return 0;
  }
  ctx.output.out(ctx.output.color.green(`updated user ${answer.user.sub}`));
  for (const line of renderUser(ctx.output, answer.user)) ctx.output.out(line);
  return 0;
}
