import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { LoginRateLimitConfig } from '../config/types.js';
import type { LoginRateLimitRepository, Tx } from '../storage/repositories.js';
import type { LoginRateLimitCounter } from '../model/index.js';

/**
 * The login rate limit (DESIGN.md 10): failed attempts are counted per
 * account and per client address in fixed windows of
 * `security.login_rate_limit.window_seconds`; once either counter reaches
 * `max_attempts`, logins for it answer 429 TOO_MANY_REQUESTS with
 * Retry-After until its window ends, even with the right password. The
 * counters live in the database so that every instance sees the same ones.
 *
 * Every attempt is counted against both keys before the password is
 * verified (beginAttempt), by an atomic increment that returns the new
 * count, so that a burst of parallel guesses, against one account or from
 * one address across many accounts, on one instance or many, gets at most
 * max_attempts verifications per window. A successful login clears the
 * account's counter and takes its own attempt back from the address's, so
 * successes never add up against an address; only attempts in flight at
 * the same moment count, which means more than max_attempts simultaneous
 * sign-ins from one address (a large NAT) see 429 for the moment.
 *
 * Second-factor codes (TOTP, recovery codes) count against the same two
 * counters, and against a third of the account's own (`secondFactor`):
 * a right password clears the account's counter, so without the third
 * every new password sign-in would buy an attacker max_attempts more
 * guesses at the code.
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
}

export interface LoginRateLimitKeys {
  /** Lower-cased e-mail. */
  account: string;
  clientAddress: string;
  /** The attempt is a second-factor code: it also counts on the account's second-factor counter. */
  secondFactor?: boolean;
}

const accountKey = (keys: LoginRateLimitKeys) => `account:${keys.account}`;
const addressKey = (keys: LoginRateLimitKeys) => `address:${keys.clientAddress}`;
const secondFactorKey = (keys: LoginRateLimitKeys) => `second-factor:${keys.account}`;
const counterKeys = (keys: LoginRateLimitKeys) => [accountKey(keys), addressKey(keys), ...(keys.secondFactor ? [secondFactorKey(keys)] : [])];

export function tooManyLoginAttempts(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many failed login attempts. Try again later.', { retryAfterSeconds });
}

function blockedUntil(counters: LoginRateLimitCounter[], now: number, windowMs: number): ApiError {
  const until = Math.max(...counters.map((c) => c.windowStartedAt + windowMs));
  // Another instance may have started the window a moment after our `now`: never beyond one window.
  return tooManyLoginAttempts(Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((until - now) / 1000))));
}

export function createLoginRateLimit(deps: { db: Tx; counters: LoginRateLimitRepository; limits: LoginRateLimitConfig; clock: Clock }): LoginRateLimit {
  const { db, counters, limits, clock } = deps;
  const windowMs = limits.windowSeconds * 1000;
  return {
    async check(keys) {
      const now = clock.now();
      const blocked = (await counters.find(db, counterKeys(keys))).filter(
        (c) => c.failures >= limits.maxAttempts && c.windowStartedAt + windowMs > now,
      );
      if (blocked.length > 0) throw blockedUntil(blocked, now, windowMs);
    },
    async beginAttempt(keys) {
      const now = clock.now();
      const counted = [];
      for (const key of counterKeys(keys)) counted.push(await counters.countAttempt(db, key, now, now - windowMs));
      const over = counted.filter((c) => c.failures > limits.maxAttempts && c.windowStartedAt + windowMs > now);
      if (over.length > 0) throw blockedUntil(over, now, windowMs);
      return now;
    },
    async recordSuccess(keys, countedAt) {
      await counters.clear(db, accountKey(keys));
      if (keys.secondFactor) await counters.clear(db, secondFactorKey(keys));
      await counters.release(db, addressKey(keys), countedAt);
    },
  };
}

/**
 * One rate-limited attempt at a credential: refused with 429 while the
 * counters are over the limit, counted before `verify` runs, and forgiven
 * when it answers something other than null. A null answer throws `refusal()`.
 */
export async function attemptWithinLimit<T>(rateLimit: LoginRateLimit, keys: LoginRateLimitKeys, verify: () => Promise<T | null>, refusal: () => ApiError): Promise<T> {
  await rateLimit.check(keys);
  const countedAt = await rateLimit.beginAttempt(keys);
  const result = await verify();
  if (result === null) throw refusal();
  await rateLimit.recordSuccess(keys, countedAt);
  return result;
}
