import { forbidden, userNotFound } from '../api-error.js';
import type { LoginRateLimit } from '../accounts/login-rate-limit.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';

/**
 * POST /api/admin/users/{sub}/unlock (docs/http-api.md, "Login rate limit"): an admin clears the
 * failed sign-in attempts counted against a user's e-mail, so the account
 * can sign in again before the window ends. The address counters are left
 * alone: they concern a network, not this user (`idp ratelimit clear
 * --address`). Unlocking an account that is not blocked changes nothing.
 */
export interface AccountUnlock {
  /** 403 FORBIDDEN for a non-admin caller, 404 USER_NOT_FOUND for an unknown sub. */
  unlock(caller: UserRecord, sub: string): Promise<void>;
}

export function createAccountUnlock(deps: { db: Tx; users: UserRepository; rateLimit: LoginRateLimit }): AccountUnlock {
  return {
    async unlock(caller, sub) {
      if (caller.role !== 'admin' || caller.deletedAt !== null) throw forbidden();
      const user = await deps.users.findBySub(deps.db, sub);
      if (!user) throw userNotFound();
      await deps.rateLimit.clearAccount(user.email);
    },
  };
}
