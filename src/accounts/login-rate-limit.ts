import { isIP } from 'node:net';
import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { LoginRateLimitConfig } from '../config/types.js';
import type { LoginRateLimitRepository, Tx } from '../storage/repositories.js';
import type { LoginRateLimitCounter } from '../model/index.js';

/**
 * The login rate limit (docs/http-api.md, "Login rate limit"): failed attempts
 * are counted per account and per client address in fixed windows of
 * `security.login_rate_limit.window_seconds`. The two counters have their
 * own limits: `max_attempts` for an account (a guessed password), and the
 * higher `address_max_attempts` for an address, which may be a whole office
 * behind NAT, so a few typos there never lock out everyone else. Once a
 * counter reaches its limit, logins for it answer 429 TOO_MANY_REQUESTS
 * with Retry-After until its window ends (or an operator clears it), even
 * with the right password. The counters live in the database so that every
 * instance sees the same ones.
 *
 * Every attempt is counted against both keys before the password is
 * verified (beginAttempt), by an atomic increment that returns the new
 * count, so that a burst of parallel guesses, against one account or from
 * one address across many accounts, on one instance or many, gets at most
 * the limit's verifications per window. A successful login clears the
 * account's counter and takes its own attempt back from the address's, so
 * successes never add up against an address.
 *
 * Second-factor codes (TOTP, recovery codes) count against the same two
 * counters, and against a third of the account's own (`secondFactor`),
 * with the account's limit: a right password clears the account's counter,
 * so without the third every new password sign-in would buy an attacker
 * max_attempts more guesses at the code.
 *
 * `security.login_rate_limit` is read at each call, so a config reload
 * changes the limits at once.
 */
export interface LoginRateLimit {
  /** Throws 429 when the account or the address is blocked. */
  check(keys: LoginRateLimitKeys): Promise<void>;
  /**
   * Counts this attempt against the account and the address before
   * verification; throws 429 when it is one too many for either. Returns
   * when it was counted; a failed attempt needs nothing more.
   */
  beginAttempt(keys: LoginRateLimitKeys): Promise<number>;
  /** A successful login forgets the account's failures and takes its attempt back from the address. */
  recordSuccess(keys: LoginRateLimitKeys, countedAt: number): Promise<void>;
  /** Forgets the failures counted against an account (its e-mail), its second-factor codes' too; true when there were any. */
  clearAccount(email: string): Promise<boolean>;
  /** Forgets the failures counted against a client address (see canonicalAddress), its wrong device codes' too; true when there were any. */
  clearAddress(address: string): Promise<boolean>;
  /**
   * Which of these accounts (e-mails) are blocked now, by their password or
   * second-factor counter, and until when (epoch ms), in one read. Keys are
   * the e-mails lower-cased.
   */
  blockedAccounts(emails: string[]): Promise<Map<string, number>>;
}

export interface LoginRateLimitKeys {
  /** The e-mail as typed; compared lower-cased. */
  account: string;
  clientAddress: string;
  /** The attempt is a second-factor code: it also counts on the account's second-factor counter. */
  secondFactor?: boolean;
}

const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
const secondFactorKey = (email: string) => `second-factor:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${canonicalAddress(address) ?? address}`;
/** Wrong device user codes (src/oidc/device/user-code-rate-limit.ts) count apart from sign-ins, under this key. */
export const deviceCodeKey = (address: string) => `device-code:${canonicalAddress(address) ?? address}`;
const counterKeys = (keys: LoginRateLimitKeys) => [
  accountKey(keys.account),
  addressKey(keys.clientAddress),
  ...(keys.secondFactor ? [secondFactorKey(keys.account)] : []),
];

/**
 * One spelling per address, so that a counter and `idp ratelimit clear`
 * meet: IPv6 compressed and lower-case (RFC 5952), and an IPv4-mapped IPv6
 * address (what a dual-stack socket reports for an IPv4 peer) as plain
 * IPv4. Null when the text is not an IP address.
 */
export function canonicalAddress(text: string): string | null {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return null;
  // A zone index (fe80::1%eth0) is no URL host: such an address is kept as written.
  if (text.includes('%')) return text.toLowerCase();
  const compressed = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function tooManyLoginAttempts(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many failed login attempts. Try again later.', {
    retryAfterSeconds,
  });
}

function blockedUntil(counters: LoginRateLimitCounter[], now: number, windowMs: number): ApiError {
  const until = Math.max(...counters.map((c) => c.windowStartedAt + windowMs));
  // Another instance may have started the window a moment after our `now`: never beyond one window.
  return tooManyLoginAttempts(Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((until - now) / 1000))));
}

export function createLoginRateLimit(deps: {
  db: Tx;
  counters: LoginRateLimitRepository;
  limits: LoginRateLimitConfig;
  clock: Clock;
}): LoginRateLimit {
  const { db, counters, limits, clock } = deps;
  const limitOf = (counter: LoginRateLimitCounter) =>
    counter.key.startsWith('address:') ? limits.addressMaxAttempts : limits.maxAttempts;
  return {
    async check(keys) {
      const now = clock.now();
      const windowMs = limits.windowSeconds * 1000;
      const found = await counters.find(db, counterKeys(keys));
      const blocked = found.filter((c) => c.failures >= limitOf(c) && c.windowStartedAt + windowMs > now);
      if (blocked.length > 0) throw blockedUntil(blocked, now, windowMs);
    },
    async beginAttempt(keys) {
      const now = clock.now();
      const windowMs = limits.windowSeconds * 1000;
      const counted = [];
      for (const key of counterKeys(keys)) counted.push(await counters.countAttempt(db, key, now, now - windowMs));
      const over = counted.filter((c) => c.failures > limitOf(c) && c.windowStartedAt + windowMs > now);
      if (over.length > 0) throw blockedUntil(over, now, windowMs);
      return now;
    },
    async recordSuccess(keys, countedAt) {
      await counters.clear(db, accountKey(keys.account));
      if (keys.secondFactor) await counters.clear(db, secondFactorKey(keys.account));
      await counters.release(db, addressKey(keys.clientAddress), countedAt);
    },
    async clearAccount(email) {
      const cleared = [await counters.clear(db, accountKey(email)), await counters.clear(db, secondFactorKey(email))];
      return cleared.some(Boolean);
    },
    async clearAddress(address) {
      const cleared = [await counters.clear(db, addressKey(address)), await counters.clear(db, deviceCodeKey(address))];
      return cleared.some(Boolean);
    },
    async blockedAccounts(emails) {
      const now = clock.now();
      const windowMs = limits.windowSeconds * 1000;
      const blocked = new Map<string, number>();
      if (emails.length === 0) return blocked;
      const keys = emails.flatMap((email) => [accountKey(email), secondFactorKey(email)]);
      for (const counter of await counters.find(db, keys)) {
        const until = counter.windowStartedAt + windowMs;
        if (counter.failures < limits.maxAttempts || until <= now) continue;
        // `account:` or `second-factor:` and the lower-cased e-mail.
        const email = counter.key.slice(counter.key.indexOf(':') + 1);
        blocked.set(email, Math.max(until, blocked.get(email) ?? 0));
      }
      return blocked;
    },
  };
}

/**
 * One rate-limited attempt at a credential: refused with 429 while the
 * counters are over the limit, counted before `verify` runs, and forgiven
 * when it answers something other than null. A null answer throws `refusal()`.
 */
export async function attemptWithinLimit<T>(
  rateLimit: LoginRateLimit,
  keys: LoginRateLimitKeys,
  verify: () => Promise<T | null>,
  refusal: () => ApiError,
): Promise<T> {
  await rateLimit.check(keys);
  const countedAt = await rateLimit.beginAttempt(keys);
  const result = await verify();
  if (result === null) throw refusal();
  await rateLimit.recordSuccess(keys, countedAt);
  return result;
}
