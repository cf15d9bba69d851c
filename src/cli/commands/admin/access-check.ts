import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { printJson } from '../../admin/print-json.js';

export interface AccessCheckOptions extends ServerOptions {
  client: string;
  user: string;
  json?: boolean;
}

/**
 * `idp admin access check --client ID --user SUB|EMAIL`: GET
 * /api/admin/clients/{client_id}/access. Exit 0 when the user may use the
 * client, 1 when not, so that a script can ask; the reasons are printed
 * either way (`--json`: the API's answer).
 */
export async function runAccessCheck(ctx: CliContext, opts: AccessCheckOptions): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const user = await findUser(client, opts.user);
  const answer = await client.checkAccess(opts.client, user.sub);
  if (opts.json) printJson(ctx.output, answer);
  else {
    const { color } = ctx.output;
    ctx.output.out(
      answer.allowed
        ? color.green(`allowed: ${user.email} (${user.sub}) may use ${opts.client}`)
        : color.red(`denied: ${user.email} (${user.sub}) may not use ${opts.client}`),
    );
    for (const reason of answer.reasons) ctx.output.out(`  - ${reason}`);
  }
  return answer.allowed ? 0 : 1;
}
