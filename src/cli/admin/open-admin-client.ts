import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { createAdminClient, type AdminClient } from './admin-client.js';
import { loadCredentials, saveCredentials } from './credential-store.js';
import { chosenServerUrl, type ServerOptions } from './server-url.js';

/**
 * The admin client of the logged-in session. `--url` or `$IDP_URL` may
 * override the stored address, but the cookie is only ever sent to the
 * origin it was issued by: a session for one server is never shown to another.
 */
export async function openAdminClient(ctx: CliContext, opts: ServerOptions): Promise<AdminClient> {
  const credentials = await loadCredentials(ctx.env);
  if (!credentials) throw new CliError('not logged in: run `idp admin login --url URL --email EMAIL` first');
  const url = chosenServerUrl(ctx, opts) ?? credentials.url;
  if (new URL(url).origin !== new URL(credentials.url).origin) {
    throw new CliError(
      `not logged in to ${url} (the stored session is for ${credentials.url}): run \`idp admin login --url ${url} --email EMAIL\``,
    );
  }
  return createAdminClient(url, {
    cookie: credentials.cookie,
    onCookie: async (cookie) => {
      await saveCredentials(ctx.env, { url: credentials.url, cookie });
    },
  });
}
