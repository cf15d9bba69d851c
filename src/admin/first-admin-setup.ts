import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../api-error.js';
import { checkNewPassword } from '../accounts/check-new-password.js';
import { isSecondFactorRequired } from '../accounts/login-second-factors.js';
import { insertNewUser, newDatabaseUser } from '../accounts/new-user.js';
import type { SessionService } from '../accounts/sessions.js';
import type { Clock } from '../clock.js';
import type { AuthConfig, UserConfig } from '../config/types.js';
import type { EventLog } from '../events/index.js';
import type { UserRecord } from '../model/index.js';
import type { FirstAdminTokenRepository, Tx, UserRepository } from '../storage/repositories.js';

/** How long a setup link works. */
export const setupLinkLifetimeMs = 60 * 60 * 1000;

/** Every refusal of the setup: the same answer, so a prober learns nothing about which check failed. */
export const setupNotAvailable = () =>
  new ApiError(
    404,
    'SETUP_NOT_AVAILABLE',
    'This setup link cannot be used: it is unknown, expired or used, or an admin exists.',
  );

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface FirstAdminSetup {
  /**
   * A new one-time token (32 random bytes, base64url) when no active admin
   * exists, in the config file or the database; its hash is stored for an
   * hour. Null when an admin exists. Expired tokens are removed on the way.
   */
  issue(): Promise<string | null>;
  /** Whether the link may show its form: the token is known and unexpired, and still no admin exists. */
  usable(token: string): Promise<boolean>;
  /**
   * Creates a database-managed admin with a verified e-mail and a password
   * (the password policy applies) and signs them in, in one transaction that
   * first takes every setup token: of concurrent setups one wins, and a
   * token is never used twice. 404 SETUP_NOT_AVAILABLE for an unknown,
   * expired or used token, or once an admin exists.
   */
  complete(
    input: { token: string; email: string; password: string },
    context: { clientAddress: string },
  ): Promise<{ user: UserRecord; sessionId: string; secondFactorPending: boolean }>;
}

/**
 * The first admin (docs/cli-admin.md, "The first admin"). The threats and
 * what answers them: a guessed token (32 random bytes; only the hash is
 * stored, so a read of the database hands out no link), a replayed one
 * (taken in the setup's transaction, with every other), an expired one (an
 * hour), two setups at once (the tokens are taken under row locks, and the
 * admin check runs after in the same transaction), and a setup after an
 * admin appeared (checked again at the form and at the post).
 */
export function createFirstAdminSetup(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  tokens: FirstAdminTokenRepository;
  users: UserRepository;
  sessions: SessionService;
  hashPassword(plain: string): Promise<string>;
  auth: AuthConfig;
  /** The config file's users: an admin declared there counts even before `idp apply`. */
  configUsers: readonly UserConfig[];
  events: EventLog;
  clock: Clock;
}): FirstAdminSetup {
  const adminExists = async (tx: Tx) =>
    deps.configUsers.some((user) => user.role === 'admin') ||
    (await deps.users.list(tx, { role: 'admin', includeDeleted: false, page: 1, pageSize: 1 })).total > 0;

  return {
    async issue() {
      if (await adminExists(deps.db)) return null;
      const now = deps.clock.now();
      await deps.tokens.deleteExpired(deps.db, now);
      const token = randomBytes(32).toString('base64url');
      await deps.tokens.insert(deps.db, {
        tokenHash: hashOf(token),
        createdAt: now,
        expiresAt: now + setupLinkLifetimeMs,
      });
      return token;
    },

    async usable(token) {
      const found = await deps.tokens.find(deps.db, hashOf(token));
      return found !== null && found.expiresAt > deps.clock.now() && !(await adminExists(deps.db));
    },

    async complete(input, context) {
      checkNewPassword(input.password, deps.auth);
      // Hash outside the transaction: argon2 takes tens of milliseconds.
      const passwordHash = await deps.hashPassword(input.password);
      return deps.transaction(async (tx) => {
        const now = deps.clock.now();
        const taken = await deps.tokens.takeAll(tx);
        const wanted = hashOf(input.token);
        if (!taken.some((token) => token.tokenHash === wanted && token.expiresAt > now)) throw setupNotAvailable();
        if (await adminExists(tx)) throw setupNotAvailable();
        const user = newDatabaseUser(
          { email: input.email, role: 'admin', emailVerified: true, emailVerificationRequired: false, passwordHash },
          now,
        );
        await insertNewUser(deps.users, tx, user);
        await deps.events.record(tx, {
          type: 'admin.user_created',
          actor: 'setup',
          subject: user.sub,
          clientAddress: context.clientAddress,
          detail: { role: 'admin' },
        });
        // A policy that asks admins for a second factor holds from the first sign-in: enrolment comes next.
        const secondFactorPending = isSecondFactorRequired(user, deps.auth.secondFactor);
        const { id } = await deps.sessions.create(tx, { sub: user.sub, amr: ['pwd'], secondFactorPending });
        if (!secondFactorPending)
          await deps.events.record(tx, {
            type: 'sign_in.succeeded',
            actor: user.sub,
            subject: user.sub,
            clientAddress: context.clientAddress,
            detail: { amr: ['pwd'] },
          });
        return { user, sessionId: id, secondFactorPending };
      });
    },
  };
}
