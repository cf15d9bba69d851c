import { emailNotVerified } from '../accounts/account-errors.js';
import type { SecondFactor } from '../accounts/login-second-factors.js';
import type { PasswordLogin, PasswordLoginInput } from '../accounts/password-login.js';
import type { SessionService } from '../accounts/sessions.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Tx } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import { runSignIn } from './run-sign-in.js';
import type { SignInDeps } from './sign-in-deps.js';
import type { NewIdentity } from './sign-in-state.js';

/**
 * How a sign-in through the API ends (DESIGN.md 6 and 11): signed in, or
 * waiting for a second factor in a pending session that no other route
 * accepts. Both carry the raw session id for the cookie.
 */
export type SignInOutcome =
  | { status: 'authenticated'; sessionId: string; user: UserRecord }
  | { status: 'second_factor_required'; sessionId: string; user: UserRecord; factors: SecondFactor[] };

export interface SignInService {
  /** POST /api/auth/login: identify by e-mail and password, then the sign-in steps; 403 EMAIL_NOT_VERIFIED when the user must verify first. */
  withPassword(input: PasswordLoginInput): Promise<SignInOutcome>;
  /** POST /api/auth/register with status active: the account just created with its password, through the same steps. */
  withNewAccount(user: UserRecord, context: { clientAddress: string }): Promise<SignInOutcome>;
  /**
   * An upstream identity provider vouched for `user` (src/federation): RFC
   * 8176 `fed`, then the same steps as any other way in.
   */
  withUpstream(user: UserRecord, context: { clientAddress: string }): Promise<SignInOutcome>;
}

export function createSignInService(deps: {
  passwords: PasswordLogin;
  sessions: SessionService;
  stepDeps: SignInDeps;
  events: EventLog;
  db: Tx;
  clock: Clock;
}): SignInService {
  /** Every way of identifying ends here: the steps run on the new identity, and the session records how far it got. */
  async function signIn(identity: NewIdentity, clientAddress: string): Promise<SignInOutcome> {
    const { sub, amr, authTime, user } = identity;
    const result = await runSignIn({ identity, request: null }, deps.stepDeps);
    if (result.kind === 'complete') {
      const { id } = await deps.sessions.create({ sub, amr, authTime });
      await deps.events.record(deps.db, { type: 'sign_in.succeeded', actor: sub, subject: sub, clientAddress, detail: { amr } });
      return { status: 'authenticated', sessionId: id, user };
    }
    if (result.kind === 'second_factor') {
      const { id } = await deps.sessions.create({ sub, amr, authTime, secondFactorPending: true });
      return { status: 'second_factor_required', sessionId: id, user, factors: result.factors };
    }
    if (result.kind === 'email_not_verified') throw emailNotVerified();
    // Pages and refusals answer an authorization request, and this run has none.
    throw new Error(`a sign-in without an authorization request ended with ${result.kind}`);
  }

  return {
    async withPassword(input) {
      const user = await deps.passwords.identify(input);
      return signIn({ kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['pwd'] }, input.clientAddress);
    },
    withNewAccount(user, context) {
      return signIn({ kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['pwd'] }, context.clientAddress);
    },
    withUpstream(user, context) {
      return signIn({ kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['fed'] }, context.clientAddress);
    },
  };
}
