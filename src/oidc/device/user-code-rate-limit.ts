import { deviceCodeKey } from '../../accounts/login-rate-limit.js';
import type { Clock } from '../../clock.js';
import type { LoginRateLimitConfig } from '../../config/types.js';
import type { LoginRateLimitCounter } from '../../model/index.js';
import type { LoginRateLimitRepository, Tx } from '../../storage/repositories.js';

/** A lookup within the limit: what it found, or that it found nothing, or that the address is locked. */
export type LimitedLookup<T> = { ok: true; value: T } | { ok: false; retryAfterSeconds: number | null };

/**
 * Wrong user codes on /device (RFC 8628 §5.1), limited like failed logins
 * (src/accounts/login-rate-limit.ts, whose counters and settings it uses):
 * per client address, `security.login_rate_limit.address_max_attempts`
 * per window of `window_seconds`, counted before the lookup by an atomic
 * increment (parallel guesses get no more), and taken back when the code
 * was right. A locked address is refused even the right code until the
 * window ends. Its counter (`device-code:<address>`) is its own, so wrong
 * codes never lock anyone out of signing in.
 */
export interface UserCodeRateLimit {
  lookUp<T>(clientAddress: string, find: () => Promise<T | null>): Promise<LimitedLookup<T>>;
}

export function createUserCodeRateLimit(deps: {
  db: Tx;
  counters: LoginRateLimitRepository;
  limits: LoginRateLimitConfig;
  clock: Clock;
}): UserCodeRateLimit {
  const { db, counters, limits, clock } = deps;
  return {
    async lookUp(clientAddress, find) {
      const key = deviceCodeKey(clientAddress);
      const now = clock.now();
      const windowMs = limits.windowSeconds * 1000;
      const locked = (counter: LoginRateLimitCounter | undefined, allowed: number) =>
        counter !== undefined && counter.failures > allowed && counter.windowStartedAt + windowMs > now
          ? {
              ok: false as const,
              retryAfterSeconds: Math.max(1, Math.ceil((counter.windowStartedAt + windowMs - now) / 1000)),
            }
          : null;
      const [before] = await counters.find(db, [key]);
      const refusedBefore = locked(before, limits.addressMaxAttempts - 1);
      if (refusedBefore) return refusedBefore;
      const counted = await counters.countAttempt(db, key, now, now - windowMs);
      const refused = locked(counted, limits.addressMaxAttempts);
      if (refused) return refused;
      const value = await find();
      if (value === null) return { ok: false, retryAfterSeconds: null };
      await counters.release(db, key, now);
      return { ok: true, value };
    },
  };
}
