import type { CliContext } from '../../context.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { findUser } from '../../admin/find-user.js';
import { changeUser } from '../../admin/explain-not-editable.js';
import { printJson } from '../../admin/print-json.js';

/** `idp admin users delete SUB|EMAIL`: DELETE /api/admin/users/{sub}, a soft delete (docs/http-api.md, "Admin API"). */
export async function runUsersDelete(
  ctx: CliContext,
  subOrEmail: string,
  opts: ServerOptions & { json?: boolean },
): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const target = await findUser(client, subOrEmail);
  const answer = await changeUser(target, () => client.deleteUser(target.sub));
  if (opts.json) {
    printJson(ctx.output, answer);
    return 0;
  }
  const { user } = answer;
  ctx.output.out(
    `deleted user ${user.sub} (${user.email}) at ${user.deleted_at ?? 'an unknown time'}; it no longer appears in \`users list\` without --include-deleted`,
  );
  return 0;
}
