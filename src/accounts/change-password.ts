import type { EventLog } from '../events/index.js';
import { userNotEditable } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { AuthConfig } from '../config/types.js';
import type { SessionRecord, UserRecord } from '../model/index.js';
import type { AuthorizationCodeRepository, TokenRepository, Tx, UserRepository } from '../storage/repositories.js';
import { checkNewPassword } from './check-new-password.js';
import type { PasswordConfirmation } from './confirm-password.js';
import { invalidField } from './invalid-field.js';
import type { LinkTokens } from './link-tokens.js';
import type { SessionEnd } from './session-end.js';

export interface PasswordChangeInput {
  user: UserRecord;
  /** The session making the change: the one that stays signed in. */
  session: SessionRecord;
  currentPassword: string | undefined;
  newPassword: string;
  clientAddress: string;
}

/**
 * A signed-in user setting a new password (docs/http-api.md, "Your own account"), as steps:
 * config-managed users' passwords come from the file (403
 * USER_NOT_EDITABLE) → a user who has a password names it (400 when
 * absent) → the new one is long enough (400 PASSWORD_TOO_SHORT) → the
 * current one is right (401 INVALID_CREDENTIALS, rate limited as a login)
 * → one transaction stores the new hash and ends everything other sessions
 * hold: those sessions (with their Logout Tokens, ./session-end.ts), the
 * grants (refresh tokens, and the access tokens under them) issued in them
 * or in none, offline ones included (a credential change is stricter than a
 * sign-out), their codes not yet redeemed, and every reset and verification
 * link mailed to the user.
 * The caller's session and what it obtained stay (docs/http-api.md
 * "Password change"). A user without a password (signed up through a
 * provider) sets one without a current password.
 */
export interface PasswordChanger {
  change(input: PasswordChangeInput): Promise<void>;
}

export function createPasswordChanger(deps: {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  sessionEnd: SessionEnd;
  tokens: TokenRepository;
  codes: AuthorizationCodeRepository;
  linkTokens: Pick<LinkTokens, 'voidAll'>;
  confirmation: PasswordConfirmation;
  hashPassword(plain: string): Promise<string>;
  auth: AuthConfig;
  events: EventLog;
  clock: Clock;
}): PasswordChanger {
  return {
    async change({ user, session, currentPassword, newPassword, clientAddress }) {
      if (user.managedBy !== 'database') throw userNotEditable();
      const { email, passwordHash: currentHash } = user;
      if (currentHash !== null && currentPassword === undefined) throw invalidField('current_password', 'is required');
      checkNewPassword(newPassword, deps.auth);
      if (currentHash !== null)
        await deps.confirmation.confirm({ email, passwordHash: currentHash }, currentPassword as string, clientAddress);
      // Hash outside the transaction: argon2 takes tens of milliseconds.
      const passwordHash = await deps.hashPassword(newPassword);
      await deps.transaction(async (tx) => {
        const now = deps.clock.now();
        await deps.users.update(tx, user.sub, { passwordHash, updatedAt: now });
        await deps.sessionEnd.othersOf(tx, user.sub, session.idHash);
        await deps.tokens.revokeGrantsOfUserOutsideSession(tx, user.sub, session.idHash, now);
        await deps.codes.deleteUnredeemedOutsideSession(tx, user.sub, session.idHash);
        await deps.linkTokens.voidAll(tx, user.sub);
        await deps.events.record(tx, { type: 'password.changed', actor: user.sub, subject: user.sub, clientAddress });
      });
    },
  };
}
