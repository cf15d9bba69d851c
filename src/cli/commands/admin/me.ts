import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderUser } from '../../admin/render-user.js';

/** `idp admin me`: GET /api/admin/me, the signed-in admin (the session user). */
export async function runAdminMe(ctx: CliContext, opts: ServerOptions & { json?: boolean }): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const answer = await client.me();
  if (opts.json) {
    printJson(ctx.output, answer);
    return 0;
  }
  for (const line of renderUser(ctx.output, answer.user)) ctx.output.out(line);
  ctx.output.out(ctx.output.color.dim(`signed in to ${client.baseUrl}`));
  return 0;
}
