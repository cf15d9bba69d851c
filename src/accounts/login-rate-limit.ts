import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { LoginRateLimitConfig } from '../config/types.js';
import type { LoginRateLimitRepository, Tx } from '../storage/repositories.js';

/**
 * The login rate limit (DESIGN.md 10): failed attempts are counted per
 * account and per client address in fixed windows of
 * `security.login_rate_limit.window_seconds`; once either counter reaches
 * `max_attempts`, logins for it answer 429 TOO_MANY_REQUESTS with
 * Retry-After until its window ends, even with the right password. The
 * counters live in the database so that every instance sees the same ones.
 */
export interface LoginRateLimit {
  /** Throws 429 when the account or the address is blocked. */
  check(keys: LoginRateLimitKeys): Promise<void>;
  recordFailure(keys: LoginRateLimitKeys): Promise<void>;
  /** A successful login forgets the account's failures (not the address's). */
  recordSuccess(keys: LoginRateLimitKeys): Promise<void>;
}

export interface LoginRateLimitKeys {
  /** Lower-cased e-mail. */
  account: string;
  clientAddress: string;
}

function counterKeys(keys: LoginRateLimitKeys): string[] {
  return [`account:${keys.account}`, `address:${keys.clientAddress}`];
}

export function tooManyLoginAttempts(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many failed login attempts. Try again later.', { retryAfterSeconds });
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
      if (blocked.length === 0) return;
      const until = Math.max(...blocked.map((c) => c.windowStartedAt + windowMs));
      throw tooManyLoginAttempts(Math.max(1, Math.ceil((until - now) / 1000)));
    },
    async recordFailure(keys) {
      const now = clock.now();
      await counters.recordFailure(db, counterKeys(keys), now, now - windowMs);
    },
    async recordSuccess(keys) {
      await counters.clear(db, `account:${keys.account}`);
    },
  };
}
