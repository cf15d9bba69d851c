import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { canonicalAddress, createLoginRateLimit } from '../../accounts/login-rate-limit.js';

export interface RatelimitClearOptions {
  config?: string;
  address?: string;
  account?: string;
}

/**
 * `idp ratelimit clear --address A | --account EMAIL`: forgets the failed
 * sign-in attempts counted against a client address or an account, straight
 * in the database like `migrate` (no running server or admin session needed:
 * the admin may be the one locked out). Every instance sees it at once,
 * since the counters live in the database.
 */
export async function runRatelimitClear(ctx: CliContext, opts: RatelimitClearOptions): Promise<number> {
  if (opts.address === undefined && opts.account === undefined)
    throw new CliError('ratelimit clear: give --address ADDRESS or --account EMAIL', 2);
  const address = opts.address === undefined ? undefined : canonicalAddress(opts.address.trim());
  if (address === null)
    throw new CliError(`--address "${opts.address}" is not an IPv4 or IPv6 address (e.g. 203.0.113.7 or 2001:db8::7)`);
  const account = opts.account?.trim();
  if (account !== undefined && !account.includes('@'))
    throw new CliError(`--account "${opts.account}" is not an e-mail address`);
  const config = await loadCommandConfig(ctx, opts.config, ['database']);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
  try {
    const { db, repositories } = storage;
    const limits = createLoginRateLimit({
      db,
      counters: repositories.loginRateLimits,
      limits: config.security.loginRateLimit,
      clock,
    });
    if (address !== undefined) report(ctx, `address ${address}`, await limits.clearAddress(address));
    if (account !== undefined) report(ctx, `account ${account.toLowerCase()}`, await limits.clearAccount(account));
    return 0;
  } finally {
    await storage.close();
  }
}

function report(ctx: CliContext, what: string, cleared: boolean): void {
  ctx.output.out(
    cleared
      ? `${ctx.output.color.green('cleared')}: the failed sign-in attempts of ${what}`
      : `${what} had no failed sign-in attempts counted`,
  );
}
