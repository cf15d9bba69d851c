import type { CliContext } from '../../context.js';
import { CliError } from '../../output.js';
import { createAdminClient } from '../../admin/admin-client.js';
import { loadCredentials, saveCredentials } from '../../admin/credential-store.js';
import { chosenServerUrl } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { readPassword, refusePasswordArgument } from '../../admin/read-password.js';
import { readSecondFactorCode } from '../../admin/read-second-factor-code.js';

export interface AdminLoginOptions {
  url?: string;
  email: string;
  passwordStdin?: boolean;
  /** An authenticator app's code or a recovery code, for an account with a second factor. */
  code?: string;
  /** Only ever refused. */
  password?: string;
  json?: boolean;
}

/**
 * `idp admin login`: signs in with POST /api/auth/login (and, for an
 * account with a second factor, the code of its authenticator app or a
 * recovery code: --code, else a prompt) and keeps the session cookie in the
 * credentials file for the other admin commands. The server address is
 * --url, else $IDP_URL, else the last one logged in to.
 */
export async function runAdminLogin(ctx: CliContext, opts: AdminLoginOptions): Promise<number> {
  refusePasswordArgument(opts.password);
  const url = chosenServerUrl(ctx, opts) ?? (await loadCredentials(ctx.env))?.url;
  if (!url)
    throw new CliError(
      '--url is required (or set $IDP_URL), e.g. idp admin login --url http://localhost:8080 --email admin@example.com',
      2,
    );
  const password = await readPassword(ctx, {
    fromStdin: Boolean(opts.passwordStdin),
    prompt: `Password for ${opts.email} at ${url} (input hidden):`,
    confirm: false,
  });
  const askCode = () => readSecondFactorCode(ctx, { given: opts.code, email: opts.email });
  const { user, cookie } = await createAdminClient(url, { cookie: null }).login(opts.email, password, askCode);
  const file = await saveCredentials(ctx.env, { url, cookie });
  if (opts.json) {
    printJson(ctx.output, { user });
  } else {
    ctx.output.out(`logged in to ${url} as ${user.email} (${user.role})`);
    ctx.output.out(ctx.output.color.dim(`session kept in ${file}`));
  }
  if (user.role !== 'admin')
    ctx.output.err(`warning: ${user.email} is not an admin; admin commands will answer FORBIDDEN`);
  return 0;
}
