import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderUser } from '../../admin/render-user.js';

/** `idp admin users get SUB`: GET /api/admin/users/{sub}. */
export async function runUsersGet(ctx: CliContext, sub: string, opts: ServerOptions & { json?: boolean }): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.getUser(sub);
  if (opts.json) printJson(ctx.output, answer);
  else for (const line of renderUser(ctx.output, answer.user)) ctx.output.out(line);
  return 0;
}
