import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { LoginRateLimitConfig } from '../config/types.js';
import type { LoginRateLimitRepository, Tx } from '../storage/repositories.js';

/**
 * A rate limit of requests that mail someone or create something (docs/http-api.md, "Self-service accounts":
 * forgot and resend; registration), with the login counters' mechanism
 * (./login-rate-limit.ts): fixed windows in the database shared by every
 * instance, one counter per e-mail (when the request names one to mail) and
 * one per client address, each raised by one atomic upsert before anything
 * else is done. Every request counts, whether or not the e-mail belongs to
 * an account, so the limit says nothing about accounts.
 * Limits: security.login_rate_limit (max_attempts per window_seconds).
 */
export interface RequestRateLimit {
  /** Counts the request; throws 429 TOO_MANY_REQUESTS with Retry-After when a counter is over the limit. */
  count(keys: { email?: string; clientAddress: string }): Promise<void>;
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests. Try again later.', { retryAfterSeconds });

export function createRequestRateLimit(deps: {
  db: Tx;
  counters: LoginRateLimitRepository;
  limits: LoginRateLimitConfig;
  clock: Clock;
  /** Names this limit's counters apart from the login's and the other limits' (e.g. "password_forgot"). */
  scope: string;
}): RequestRateLimit {
  const { db, counters, limits, clock, scope } = deps;
  const windowMs = limits.windowSeconds * 1000;
  return {
    async count({ email, clientAddress }) {
      const now = clock.now();
      const counted = [await counters.countAttempt(db, `${scope}:address:${clientAddress}`, now, now - windowMs)];
      if (email !== undefined)
        counted.push(
          await counters.countAttempt(db, `${scope}:account:${email.trim().toLowerCase()}`, now, now - windowMs),
        );
      const over = counted.filter((c) => c.failures > limits.maxAttempts);
      if (over.length === 0) return;
      const until = Math.max(...over.map((c) => c.windowStartedAt + windowMs));
      // Another instance may have started the window a moment after our `now`: never beyond one window.
      throw tooManyRequests(Math.min(limits.windowSeconds, Math.max(1, Math.ceil((until - now) / 1000))));
    },
  };
}
