import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { printJson } from '../../admin/print-json.js';
import { renderUser } from '../../admin/render-user.js';

/** `idp admin users get SUB|EMAIL`: GET /api/admin/users/{sub}, the e-mail looked up first when given (find-user.ts). */
export async function runUsersGet(
  ctx: CliContext,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, subOrEmail);
  if (opts.json) printJson(ctx.output, { user });
  else for (const line of renderUser(ctx.output, user)) ctx.output.out(line);
  return 0;
}
