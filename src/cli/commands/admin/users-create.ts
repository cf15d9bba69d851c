import type { CliContext } from '../../context.js';
import type { CreateUserBody } from '../../admin/admin-api-types.js';
import type { UserRole } from '../../../model/index.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { readPassword, refusePasswordArgument } from '../../admin/read-password.js';
import { renderUser } from '../../admin/render-user.js';

export interface UsersCreateOptions extends ServerOptions {
  email: string;
  role?: UserRole;
  emailVerified?: boolean;
  passwordStdin?: boolean;
  /** Only ever refused. */
  password?: string;
  json?: boolean;
}

/**
 * `idp admin users create`: POST /api/admin/users. The
 * password comes from stdin or a hidden prompt asked twice, never from argv.
 */
export async function runUsersCreate(ctx: CliContext, opts: UsersCreateOptions): Promise<number> {
  refusePasswordArgument(opts.password);
  // Check the session before asking for a password that could not be used.
  const client = await openAdminClient(ctx, opts);
  const password = await readPassword(ctx, {
    fromStdin: Boolean(opts.passwordStdin),
    prompt: `Password for the new user ${opts.email} (input hidden):`,
    confirm: true,
  });
  const body: CreateUserBody = { email: opts.email, password };
  if (opts.role !== undefined) body.role = opts.role;
  if (opts.emailVerified !== undefined) body.email_verified = opts.emailVerified;
  const answer = await client.createUser(body);
  if (opts.json) {
    printJson(ctx.output, answer);
    return 0;
  }
  ctx.output.out(ctx.output.color.green(`created user ${answer.user.sub}`));
  for (const line of renderUser(ctx.output, answer.user)) ctx.output.out(line);
  return 0;
}
