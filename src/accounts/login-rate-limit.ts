import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { LoginRateLimitConfig } from '../config/types.js';
import type { LoginRateLimitCounter, LoginRateLimitRepository, Tx } from '../storage/repositories.js';

/**
 * The login rate limit (DESIGN.md 10): failed attempts are counted per
 * account and per client address in fixed windows of
 * `security.login_rate_limit.window_seconds`; once either counter reaches
 * `max_attempts`, logins for it answer 429 TOO_MANY_REQUESTS with
 * Retry-After until its window ends, even with the right password. The
 * counters live in the database so that every instance sees the same ones.
 *
 * The account's attempt is counted before the password is verified
 * (beginAttempt), so that a burst of parallel guesses against one account,
 * on one instance or many, gets at most max_attempts verifications per
 * window; a successful login clears that counter again.
 */
export interface LoginRateLimit {
  /** Throws 429 when the account or the address is blocked. */
  check(keys: LoginRateLimitKeys): Promise<void>;
  /** Counts this attempt against the account before verification; throws 429 when it is one too many. */
  beginAttempt(keys: LoginRateLimitKeys): Promise<void>;
  /** Counts a failure against the address (the account's was counted by beginAttempt). */
  recordFailure(keys: LoginRateLimitKeys): Promise<void>;
  /** A successful login forgets the account's failures (not the address's). */
  recordSuccess(keys: LoginRateLimitKeys): Promise<void>;
}

export interface LoginRateLimitKeys {
  /** Lower-cased e-mail. */
  account: string;
  clientAddress: string;
}

const accountKey = (keys: LoginRateLimitKeys) => `account:${keys.account}`;
const addressKey = (keys: LoginRateLimitKeys) => `address:${keys.clientAddress}`;

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
      const blocked = (await counters.find(db, [accountKey(keys), addressKey(keys)])).filter(
        (c) => c.failures >= limits.maxAttempts && c.windowStartedAt + windowMs > now,
      );
      if (blocked.length > 0) throw blockedUntil(blocked, now, windowMs);
    },
    async beginAttempt(keys) {
      const now = clock.now();
      await counters.recordFailure(db, [accountKey(keys)], now, now - windowMs);
      // Concurrent attempts may each see the others' counts: that only errs
      // towards refusing, never lets more than max_attempts through.
      const over = (await counters.find(db, [accountKey(keys)])).filter(
        (c) => c.failures > limits.maxAttempts && c.windowStartedAt + windowMs > now,
      );
      if (over.length > 0) throw blockedUntil(over, now, windowMs);
    },
    async recordFailure(keys) {
      const now = clock.now();
      await counters.recordFailure(db, [addressKey(keys)], now, now - windowMs);
    },
    async recordSuccess(keys) {
      await counters.clear(db, accountKey(keys));
    },
  };
}
