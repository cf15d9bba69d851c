import { forbidden, userNotFound } from '../api-error.js';
import type { LoginRateLimit } from '../accounts/login-rate-limit.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';

/**
 * An account's block by the login rate limit, read and lifted by an admin.
 *
 * POST /api/admin/users/{sub}/unlock (docs/http-api.md, "Login rate limit"): an admin clears the
 * failed sign-in attempts counted against a user's e-mail, so the account
 * can sign in again before the window ends. The address counters are left
 * alone: they concern a network, not this user (`idp ratelimit clear
 * --address`). Unlocking an account that is not blocked changes nothing.
 */
export interface AccountUnlock {
  /** 403 FORBIDDEN for a non-admin caller, 404 USER_NOT_FOUND for an unknown sub. */
  unlock(caller: UserRecord, sub: string): Promise<void>;
  /**
   * GET /api/admin/locked-users: which of these users are blocked now and
   * until when (epoch ms), in the order asked; unknown subs are left out.
   * Two reads for a whole page of users. 403 FORBIDDEN for a non-admin caller.
   */
  lockedUsers(caller: UserRecord, subs: string[]): Promise<{ sub: string; lockedUntil: number }[]>;
}

export function createAccountUnlock(deps: { db: Tx; users: UserRepository; rateLimit: LoginRateLimit }): AccountUnlock {
  const requireAdmin = (caller: UserRecord) => {
    if (caller.role !== 'admin' || caller.deletedAt !== null) throw forbidden();
  };
  return {
    async lockedUsers(caller, subs) {
      requireAdmin(caller);
      const users = await deps.users.findBySubs(deps.db, subs);
      const blocked = await deps.rateLimit.blockedAccounts(users.map((user) => user.email));
      const emailOf = new Map(users.map((user) => [user.sub, user.email.trim().toLowerCase()]));
      return [...new Set(subs)].flatMap((sub) => {
        const until = blocked.get(emailOf.get(sub) ?? '');
        return until === undefined ? [] : [{ sub, lockedUntil: until }];
      });
    },
    async unlock(caller, sub) {
      requireAdmin(caller);
      const user = await deps.users.findBySub(deps.db, sub);
      if (!user) throw userNotFound();
      await deps.rateLimit.clearAccount(user.email);
    },
  };
}
