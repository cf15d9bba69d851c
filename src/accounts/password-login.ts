import { ApiError } from '../api-error.js';
import type { EventLog } from '../events/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import type { LoginRateLimit } from './login-rate-limit.js';

/**
 * Who an e-mail and password belong to (docs/http-api.md, "Sessions and login"), as steps:
 * checkRateLimit → beginAttempt → findLiveUser → verifyPassword → recordSuccess
 * → rehash (an imported hash becomes argon2id).
 * A wrong e-mail, a wrong password, a user without a password and a
 * soft-deleted user all answer the same 401 INVALID_CREDENTIALS after the
 * same argon2 work, so the answer does not reveal which accounts exist.
 * What follows a right password (second factor, session) is the sign-in of
 * src/interaction.
 */
export interface PasswordLoginInput {
  email: string;
  password: string;
  clientAddress: string;
}

export interface PasswordLogin {
  /** The live user the password belongs to; 401 INVALID_CREDENTIALS or 429 otherwise. */
  identify(input: PasswordLoginInput): Promise<UserRecord>;
}

export const invalidCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The email or password is incorrect.');

export function createPasswordLogin(deps: {
  db: Tx;
  users: UserRepository;
  rateLimit: LoginRateLimit;
  hashPassword(plain: string): Promise<string>;
  verifyPassword(hash: string, plain: string): Promise<boolean>;
  /** Whether a hash that verified is to be replaced by hashPassword's (./passwords.ts). */
  needsRehash(hash: string): boolean;
  events: EventLog;
}): PasswordLogin {
  let decoyHash: Promise<string> | undefined;
  // Spends the same argon2 time when there is no hash to check against.
  const decoy = () => (decoyHash ??= deps.hashPassword('decoy password that never matches'));

  /**
   * An imported hash (src/accounts/imported-password-hashes.ts) that has just
   * verified gives way to argon2id, once: the conditional update loses to a
   * password changed meanwhile. Config-managed users keep the file's hash.
   */
  const rehash = async (user: UserRecord, password: string): Promise<void> => {
    const current = user.passwordHash as string;
    if (user.managedBy !== 'database' || !deps.needsRehash(current)) return;
    await deps.users.replacePasswordHash(deps.db, user.sub, current, await deps.hashPassword(password));
  };

  return {
    async identify({ email, password, clientAddress }) {
      const keys = { account: email.trim().toLowerCase(), clientAddress };
      // The audit trail of refused attempts: whose account it was, when one matches (never the password).
      const refused = async (type: 'sign_in.failed' | 'sign_in.rate_limited', sub: string | null) =>
        deps.events.record(deps.db, {
          type,
          actor: sub ?? 'unknown',
          subject: sub,
          clientAddress,
          detail: { method: 'password' },
        });
      const countedAt = await deps.rateLimit
        .check(keys)
        .then(() => deps.rateLimit.beginAttempt(keys))
        .catch(async (error: unknown) => {
          if (error instanceof ApiError && error.status === 429)
            await refused(
              'sign_in.rate_limited',
              (await deps.users.findLiveByEmail(deps.db, keys.account))?.sub ?? null,
            );
          throw error;
        });
      const user = await deps.users.findLiveByEmail(deps.db, keys.account);
      const hash = user?.passwordHash ?? (await decoy());
      const matches = (await deps.verifyPassword(hash, password)) && Boolean(user?.passwordHash);
      if (!user || !matches) {
        await refused('sign_in.failed', user?.sub ?? null);
        throw invalidCredentials();
      }
      await deps.rateLimit.recordSuccess(keys, countedAt);
      await rehash(user, password);
      return user;
    },
  };
}
