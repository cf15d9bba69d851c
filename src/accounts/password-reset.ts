import type { AuthConfig } from '../config/types.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import { invalidToken } from './account-errors.js';
import type { LinkTokens } from './link-tokens.js';
import type { MailRequest, MailRequestInput } from './mail-request.js';
import { checkNewPassword } from './check-new-password.js';
import { dropUnprovenAccess, type UnprovenAccessDeps } from './drop-unproven-access.js';

/**
 * A forgotten password (docs/http-api.md, "Self-service accounts"): forgot mails a reset link to a live
 * database-managed account (a config user's password comes from git, so
 * none is sent; ./account-mail.ts decides when the job runs), reset
 * redeems it: PASSWORD_TOO_SHORT → a look at the token (400 INVALID_TOKEN
 * before any argon2 work) → hash → one transaction that redeems the token
 * (the single-use guarantee), sets the password, marks the address
 * verified (the link proved it; when it was not verified yet, the
 * connections, passkeys and authenticator app set up before go:
 * ./drop-unproven-access.ts), ends every
 * session and refresh token of the user and every other link it was mailed
 * (verification ones too), and records the password.reset event.
 */
export interface PasswordReset {
  /** POST /api/auth/password/forgot: 202 always (./mail-request.ts). */
  forgot(input: MailRequestInput): Promise<void>;
  /**
   * Whether the link's token could still reset a password (not used, not
   * expired), without redeeming it: the page says so before anyone types a
   * new password. It tells the holder of a token only what reset would.
   */
  usable(token: string): Promise<boolean>;
  /** POST /api/auth/password/reset. */
  reset(input: { token: string; password: string; clientAddress: string }): Promise<void>;
}

export function createPasswordReset(
  deps: UnprovenAccessDeps & {
    db: Tx;
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
    users: UserRepository;
    linkTokens: LinkTokens;
    forgot: MailRequest;
    auth: Pick<AuthConfig, 'passwordMinLength'>;
    hashPassword(plain: string): Promise<string>;
    /** Ends every session and grant (refresh tokens) of the user, inside the transaction. */
    revokeUser(tx: Tx, sub: string): Promise<void>;
    events: EventLog;
    clock: Clock;
  },
): PasswordReset {
  return {
    forgot: deps.forgot,
    async usable(token) {
      return (await deps.linkTokens.peek(deps.db, token, 'password_reset')) !== null;
    },
    async reset({ token, password, clientAddress }) {
      checkNewPassword(password, deps.auth);
      if (!(await deps.linkTokens.peek(deps.db, token, 'password_reset'))) throw invalidToken();
      // Outside the transaction: argon2 takes tens of milliseconds.
      const passwordHash = await deps.hashPassword(password);
      await deps.transaction(async (tx) => {
        const user = await deps.linkTokens.redeem(tx, token, 'password_reset', (sub) => deps.users.findBySub(tx, sub));
        if (!user || user.managedBy !== 'database') throw invalidToken();
        await dropUnprovenAccess(deps, tx, user, clientAddress);
        await deps.users.update(tx, user.sub, { passwordHash, emailVerified: true, updatedAt: deps.clock.now() });
        await deps.revokeUser(tx, user.sub);
        await deps.linkTokens.voidAll(tx, user.sub);
        await deps.events.record(tx, { type: 'password.reset', actor: user.sub, subject: user.sub, clientAddress });
      });
    },
  };
}
