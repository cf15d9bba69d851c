import { emailNotVerified } from '../accounts/account-errors.js';
import { hasSecondFactor, type SecondFactor } from '../accounts/login-second-factors.js';
import { stepUpNotNeeded } from '../accounts/second-factor-errors.js';
import type { PasskeyService } from '../accounts/passkey-service.js';
import type { PasswordLogin, PasswordLoginInput } from '../accounts/password-login.js';
import type { ActiveSession, SessionService } from '../accounts/sessions.js';
import type { TotpService } from '../accounts/totp-service.js';
import { ApiError, unauthorized } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Tx } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import { runSignIn } from './run-sign-in.js';
import type { SignInDeps } from './sign-in-deps.js';
import type { NewIdentity } from './sign-in-state.js';

/**
 * How a sign-in through the API ends (docs/http-api.md, "Sessions and login"): signed in, or
 * waiting in a pending session that only the second-factor routes accept,
 * for one of the user's factors or for the enrolment of a first one. Both
 * carry the raw session id for the cookie.
 */
export type SignInOutcome =
  | { status: 'authenticated'; sessionId: string; user: UserRecord }
  | {
      status: 'second_factor_required';
      sessionId: string;
      user: UserRecord;
      factors: SecondFactor[];
      enrolmentRequired: boolean;
    };

/** A passkey either completed the cookie's pending session (renewed: `sessionId` is its new raw id) or signed in anew. */
export type PasskeySignInOutcome = { status: 'completed'; sessionId: string; user: UserRecord } | SignInOutcome;

/** RFC 8176 method of each second factor: a one-time code, or a hardware-bound key. */
export type SecondFactorMethod = 'otp' | 'hwk';

export interface SignInService {
  /** POST /api/auth/login: identify by e-mail and password, then the sign-in steps; 403 EMAIL_NOT_VERIFIED when the user must verify first. */
  withPassword(input: PasswordLoginInput): Promise<SignInOutcome>;
  /** POST /api/auth/register with status active: the account just created with its password, through the same steps. */
  withNewAccount(user: UserRecord, context: { clientAddress: string }): Promise<SignInOutcome>;
  /** POST /api/auth/login/totp: the pending session's user proves their authenticator app; `sessionId` is the renewed session's raw id. */
  withTotp(
    pending: ActiveSession,
    code: string,
    clientAddress: string,
  ): Promise<{ user: UserRecord; sessionId: string }>;
  /** POST /api/auth/login/recovery-code: spends one recovery code. */
  withRecoveryCode(
    pending: ActiveSession,
    code: string,
    clientAddress: string,
  ): Promise<{ user: UserRecord; sessionId: string; recoveryCodesLeft: number }>;
  /**
   * POST /api/auth/passkey/verify: the second factor of the cookie's pending
   * session, or a passwordless sign-in; `askedHere` are the challenges the
   * calling browser asked for (PasskeyService.authenticate).
   */
  withPasskey(
    response: unknown,
    pending: ActiveSession | null,
    askedHere: readonly string[],
    clientAddress: string,
  ): Promise<PasskeySignInOutcome>;
  /**
   * The pending session has its second factor now (`method`, proved or
   * enrolled): the steps run again with it, and the session becomes full
   * under a new id, returned raw for the cookie (the pending one stops working).
   */
  completeSecondFactor(pending: ActiveSession, method: SecondFactorMethod, clientAddress: string): Promise<string>;
  /** What a pending session waits for now (the second-factor page asks): the same answer as its login. */
  awaitedFactors(pending: ActiveSession): Promise<{ factors: SecondFactor[]; enrolmentRequired: boolean }>;
  /**
   * POST /api/auth/step-up: a client requires a second factor and this
   * signed-in session has none (clientSecondFactor). The session becomes a
   * pending one that must get one (SessionRecord.secondFactorRequired) under
   * a new id; the answer is the login's: the user's factors, or the
   * enrolment of a first one. 409 STEP_UP_NOT_NEEDED when the session has
   * a second factor already.
   */
  stepUp(active: ActiveSession): Promise<Extract<SignInOutcome, { status: 'second_factor_required' }>>;
  /**
   * An upstream identity provider vouched for `user` (src/federation): RFC
   * 8176 `fed`, then the same steps as any other way in.
   */
  withUpstream(user: UserRecord, context: { clientAddress: string }): Promise<SignInOutcome>;
}

export function createSignInService(deps: {
  passwords: PasswordLogin;
  sessions: SessionService;
  totp: TotpService;
  passkeys: PasskeyService;
  stepDeps: SignInDeps;
  events: EventLog;
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  clock: Clock;
}): SignInService {
  // In the transaction that creates or completes the session: no session without its event, nor the reverse.
  const succeeded = (tx: Tx, sub: string, amr: string[], clientAddress: string) =>
    deps.events.record(tx, {
      type: 'sign_in.succeeded',
      actor: sub,
      subject: sub,
      clientAddress,
      detail: { amr },
    });

  /** Every way of identifying ends here: the steps run on the new identity, and the session records how far it got. */
  async function signIn(identity: NewIdentity, clientAddress: string): Promise<SignInOutcome> {
    const { sub, amr, authTime, user } = identity;
    const result = await runSignIn({ identity, request: null }, deps.stepDeps);
    if (result.kind === 'complete') {
      const { id } = await deps.transaction(async (tx) => {
        const created = await deps.sessions.create(tx, { sub, amr, authTime });
        await succeeded(tx, sub, amr, clientAddress);
        return created;
      });
      return { status: 'authenticated', sessionId: id, user };
    }
    if (result.kind === 'second_factor' || result.kind === 'second_factor_enrolment') {
      const { id } = await deps.sessions.create(deps.db, { sub, amr, authTime, secondFactorPending: true });
      const factors = result.kind === 'second_factor' ? result.factors : [];
      return {
        status: 'second_factor_required',
        sessionId: id,
        user,
        factors,
        enrolmentRequired: result.kind === 'second_factor_enrolment',
      };
    }
    if (result.kind === 'email_not_verified') throw emailNotVerified();
    // Pages and refusals answer an authorization request, and this run has none.
    throw new Error(`a sign-in without an authorization request ended with ${result.kind}`);
  }

  async function completeSecondFactor(
    pending: ActiveSession,
    method: SecondFactorMethod,
    clientAddress: string,
  ): Promise<string> {
    const { session, user } = pending;
    const amr = [...session.amr.filter((m) => m !== method), method];
    const identity: NewIdentity = { kind: 'new', sub: user.sub, user, amr, authTime: deps.clock.now() };
    const result = await runSignIn({ identity, request: null }, deps.stepDeps);
    // The steps after the second factor still decide: an address that must be verified first stops here too.
    if (result.kind === 'email_not_verified') throw emailNotVerified();
    // With a second factor in its amr, the second-factor steps pass, and the others need no authorization request.
    if (result.kind !== 'complete') throw new Error(`a sign-in with a second factor ended with ${result.kind}`);
    return deps.transaction(async (tx) => {
      const sessionId = await deps.sessions.completeSecondFactor(tx, session.idHash, amr);
      // Ended (logout, revocation) while its second factor was checked.
      if (sessionId === null) throw unauthorized();
      await succeeded(tx, user.sub, amr, clientAddress);
      return sessionId;
    });
  }

  async function awaitedFactors({ session, user }: ActiveSession) {
    const identity: NewIdentity = {
      kind: 'new',
      sub: user.sub,
      user,
      amr: session.amr,
      authTime: session.authTime,
      secondFactorRequired: session.secondFactorRequired,
    };
    const result = await runSignIn({ identity, request: null }, deps.stepDeps);
    if (result.kind === 'second_factor') return { factors: result.factors, enrolmentRequired: false };
    // Enrolment, or nothing awaited any more (its factor was removed meanwhile): the pending session may only enrol.
    return { factors: [], enrolmentRequired: result.kind === 'second_factor_enrolment' };
  }

  /**
   * The audit trail of a refused second factor (a wrong or reused code, a
   * passkey that does not verify, the rate limit): the account is known,
   * the code never written down.
   */
  async function recordingRefusals<T>(
    sub: string | null,
    method: 'totp' | 'recovery_code' | 'passkey',
    clientAddress: string,
    attempt: () => Promise<T>,
  ): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 429)) {
        const type = error.status === 429 ? 'sign_in.rate_limited' : 'sign_in.failed';
        await deps.events.record(deps.db, {
          type,
          actor: sub ?? 'unknown',
          subject: sub,
          clientAddress,
          detail: { method },
        });
      }
      throw error;
    }
  }

  return {
    async withPassword(input) {
      const user = await deps.passwords.identify(input);
      return signIn(
        { kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['pwd'] },
        input.clientAddress,
      );
    },

    withNewAccount(user, context) {
      return signIn(
        { kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['pwd'] },
        context.clientAddress,
      );
    },

    async withTotp(pending, code, clientAddress) {
      await recordingRefusals(pending.user.sub, 'totp', clientAddress, () =>
        deps.totp.verifySignInCode(pending.user, code, clientAddress),
      );
      const sessionId = await completeSecondFactor(pending, 'otp', clientAddress);
      return { user: pending.user, sessionId };
    },

    async withRecoveryCode(pending, code, clientAddress) {
      const recoveryCodesLeft = await recordingRefusals(pending.user.sub, 'recovery_code', clientAddress, () =>
        deps.totp.useRecoveryCode(pending.user, code, clientAddress),
      );
      const sessionId = await completeSecondFactor(pending, 'otp', clientAddress);
      return { user: pending.user, sessionId, recoveryCodesLeft };
    },

    async withPasskey(response, pending, askedHere, clientAddress) {
      const pendingSignIn = pending && { sub: pending.user.sub, sessionId: pending.session.idHash };
      const { user, completesPending } = await recordingRefusals(
        pending?.user.sub ?? null,
        'passkey',
        clientAddress,
        () => deps.passkeys.authenticate(response, pendingSignIn, askedHere),
      );
      if (completesPending && pending) {
        const sessionId = await completeSecondFactor(pending, 'hwk', clientAddress);
        return { status: 'completed', sessionId, user };
      }
      return signIn({ kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['hwk'] }, clientAddress);
    },

    completeSecondFactor,

    awaitedFactors,

    async stepUp({ session, user }) {
      if (hasSecondFactor(session.amr)) throw stepUpNotNeeded();
      const sessionId = await deps.sessions.stepUp(session);
      // Ended (logout, revocation) meanwhile.
      if (sessionId === null) throw unauthorized();
      const stepped = { ...session, secondFactorPending: true, secondFactorRequired: true };
      const { factors, enrolmentRequired } = await awaitedFactors({ session: stepped, user });
      return { status: 'second_factor_required', sessionId, user, factors, enrolmentRequired };
    },

    withUpstream(user, context) {
      return signIn(
        { kind: 'new', sub: user.sub, authTime: deps.clock.now(), user, amr: ['fed'] },
        context.clientAddress,
      );
    },
  };
}
