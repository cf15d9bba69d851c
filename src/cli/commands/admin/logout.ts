import type { CliContext } from '../../context.js';
import { AdminApiError } from '../../admin/admin-api-error.js';
import { createAdminClient } from '../../admin/admin-client.js';
import { loadCredentials, removeCredentials } from '../../admin/credential-store.js';

/**
 * `idp admin logout`: ends the session on the server, then forgets it here.
 * The local file goes in any case; if the server could not be told, the
 * command says so and fails, since the session stays valid there until it expires.
 */
export async function runAdminLogout(ctx: CliContext): Promise<number> {
  const credentials = await loadCredentials(ctx.env);
  if (!credentials) {
    ctx.output.out('not logged in');
    return 0;
  }
  try {
    await createAdminClient(credentials.url, { cookie: credentials.cookie }).logout();
  } catch (error) {
    // An ended session (401) is what logout wants anyway.
    if (!(error instanceof AdminApiError && error.status === 401)) {
      await removeCredentials(ctx.env);
      ctx.output.err(`the local session is removed, but ${credentials.url} could not end it: ${describe(error)}`);
      return 1;
    }
  }
  await removeCredentials(ctx.env);
  ctx.output.out(`logged out of ${credentials.url}`);
  return 0;
}

function describe(error: unknown): string {
  return error instanceof AdminApiError ? `${error.code}: ${error.message}` : (error as Error).message;
}
