import type { EventLog } from '../events/index.js';
import { ApiError, userNotEditable } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { AccountDeletionConfig } from '../config/types.js';
import type { SessionRecord, UserRecord } from '../model/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { PasswordConfirmation } from './confirm-password.js';
import { invalidField } from './invalid-field.js';

export interface OwnAccountDeletionInput {
  user: UserRecord;
  session: SessionRecord;
  password: string | undefined;
  clientAddress: string;
}

export interface DeletedAccount {
  user: UserRecord;
  /** When cleanup may erase the account for good (deleted_at + account_deletion.grace_period_days). */
  eraseAfter: number;
}

/** Without a password, the sign-in of the session must be this recent to confirm a deletion. */
export const recentSignInMs = 10 * 60 * 1000;

export const accountDeletionDisabled = () =>
  new ApiError(403, 'ACCOUNT_DELETION_DISABLED', 'Deleting your own account is not enabled on this service.');
export const reauthenticationRequired = () =>
  new ApiError(
    401,
    'REAUTHENTICATION_REQUIRED',
    'Sign in again to confirm: deleting an account without a password needs a sign-in within the last 10 minutes.',
  );

/**
 * A user deleting their own account (docs/http-api.md, "Your own account"), as steps: the service
 * allows it (403 ACCOUNT_DELETION_DISABLED) → the account is
 * database-managed (403 USER_NOT_EDITABLE: the file owns config users) →
 * the user confirms: with their password when they have one (400 when
 * absent, 401 INVALID_CREDENTIALS when wrong, rate limited as a login),
 * else with a sign-in less than 10 minutes old (401
 * REAUTHENTICATION_REQUIRED) → one transaction soft-deletes the user and
 * revokes every session and token they hold (every GrantRevoker). Cleanup
 * erases the account after account_deletion.grace_period_days
 * (docs/http-api.md "Deleting your account").
 */
export interface OwnAccountDeletion {
  delete(input: OwnAccountDeletionInput): Promise<DeletedAccount>;
}

export function createOwnAccountDeletion(deps: {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  /** Revokes everything the user holds (every GrantRevoker), in the caller's transaction. */
  revokeUser(tx: Tx, sub: string): Promise<void>;
  confirmation: PasswordConfirmation;
  accountDeletion: AccountDeletionConfig;
  events: EventLog;
  clock: Clock;
}): OwnAccountDeletion {
  const graceMs = deps.accountDeletion.gracePeriodDays * 86_400_000;
  return {
    async delete({ user, session, password, clientAddress }) {
      if (!deps.accountDeletion.enabled) throw accountDeletionDisabled();
      if (user.managedBy !== 'database') throw userNotEditable();
      if (user.passwordHash !== null) {
        if (password === undefined) throw invalidField('password', 'is required');
        await deps.confirmation.confirm(
          { email: user.email, passwordHash: user.passwordHash },
          password,
          clientAddress,
        );
      } else if (deps.clock.now() - session.authTime > recentSignInMs) {
        throw reauthenticationRequired();
      }
      const deletedAt = await deps.transaction(async (tx) => {
        const now = deps.clock.now();
        await deps.users.update(tx, user.sub, { deletedAt: now, updatedAt: now });
        await deps.revokeUser(tx, user.sub);
        await deps.events.record(tx, {
          type: 'account.deleted',
          actor: user.sub,
          subject: user.sub,
          clientAddress,
          detail: { erase_after: new Date(now + graceMs).toISOString() },
        });
        return now;
      });
      return { user: { ...user, deletedAt, updatedAt: deletedAt }, eraseAfter: deletedAt + graceMs };
    },
  };
}
