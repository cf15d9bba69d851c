import { describe, expect, it } from 'vitest';
import { invalidCredentials, type PasswordLogin } from '../../src/accounts/password-login.js';
import type { PasskeyService } from '../../src/accounts/passkey-service.js';
import type { ActiveSession, CreateSessionInput, SessionService } from '../../src/accounts/sessions.js';
import type { TotpService } from '../../src/accounts/totp-service.js';
import { invalidCode } from '../../src/accounts/second-factor-errors.js';
import type { AuthConfig } from '../../src/config/types.js';
import { createSignInService } from '../../src/interaction/sign-in-service.js';
import type { SessionRecord, UserRecord } from '../../src/model/index.js';
import { newIdentity, now, signInDeps } from './sign-in-fixtures.js';
import type { EventInput, EventLog } from '../../src/events/index.js';
import type { Tx } from '../../src/storage/repositories.js';

/** The orchestration of the sign-in service: whose credential, the steps, then the session they allow. The real factors are tested through HTTP. */
function setUp(policy: AuthConfig['secondFactor'], user: UserRecord = newIdentity().user, totpRegistered = false) {
  const created: CreateSessionInput[] = [];
  const completed: { idHash: string; amr: string[] }[] = [];
  const steppedUp: string[] = [];
  const passwords: PasswordLogin = {
    async identify({ password }) {
      if (password !== 'right') throw invalidCredentials();
      return user;
    },
  };
  const sessions = {
    async create(_tx: Tx, input: CreateSessionInput) {
      created.push(input);
      return { id: `raw-${created.length}`, session: {} as SessionRecord };
    },
    async completeSecondFactor(_tx: Tx, idHash: string, amr: string[]) {
      completed.push({ idHash, amr });
      return `renewed-${completed.length}`;
    },
    // A session that ended meanwhile ('gone') cannot step up.
    async stepUp(session: SessionRecord) {
      steppedUp.push(session.idHash);
      return session.idHash === 'gone' ? null : `stepped-${steppedUp.length}`;
    },
  } as unknown as SessionService;
  const totp = {
    async verifySignInCode(_user: UserRecord, code: string) {
      if (code !== '123456') throw invalidCode();
    },
  } as unknown as TotpService;
  const passkeys = {
    async authenticate(response: unknown, pending: { sessionId: string } | null, askedHere: readonly string[]) {
      expect(askedHere).toEqual(['asked-here']);
      return { user, completesPending: response === 'for-the-pending-sign-in' && pending !== null };
    },
  } as unknown as PasskeyService;
  const summary = { totpRegistered, unusedRecoveryCodes: 0, passkeyCount: 0 };
  const deps = signInDeps({
    secondFactorPolicy: policy,
    factors: { summarize: async (subs) => new Map(subs.map((sub) => [sub, summary])) },
  });
  const recorded: EventInput[] = [];
  const events: EventLog = {
    record: async (_tx, event) => void recorded.push(event),
    recordMany: async (_tx, many) => void recorded.push(...many),
  };
  const service = createSignInService({
    passwords,
    sessions,
    totp,
    passkeys,
    stepDeps: deps,
    events,
    db: {} as Tx,
    transaction: (work) => work({} as Tx),
    clock: deps.clock,
  });
  const login = (password: string) => service.withPassword({ email: user.email, password, clientAddress: '192.0.2.1' });
  const pendingSession: ActiveSession = {
    user,
    session: {
      idHash: 'pending-hash',
      publicId: 'pending-public',
      sub: user.sub,
      createdAt: 0,
      lastSeenAt: 0,
      expiresAt: 1,
      authTime: 0,
      amr: ['pwd'],
      secondFactorPending: true,
      secondFactorRequired: false,
    },
  };
  const fullSession = (overrides: Partial<SessionRecord> = {}): ActiveSession => ({
    user,
    session: { ...pendingSession.session, idHash: 'full-hash', secondFactorPending: false, ...overrides },
  });
  return { login, service, created, completed, steppedUp, user, pendingSession, fullSession, recorded };
}

describe('signing in with a password', () => {
  it('creates a full session when every step passes, and records the sign-in', async () => {
    const { login, created, user, recorded } = setUp('optional');
    expect(await login('right')).toEqual({ status: 'authenticated', sessionId: 'raw-1', user });
    expect(created).toEqual([{ sub: 'alice', amr: ['pwd'], authTime: now }]);
    expect(recorded).toEqual([
      {
        type: 'sign_in.succeeded',
        actor: 'alice',
        subject: 'alice',
        clientAddress: '192.0.2.1',
        detail: { amr: ['pwd'] },
      },
    ]);
  });

  it('creates a pending session and asks for the enrolment of a factor when one is required and none registered', async () => {
    const { login, created, user } = setUp('required');
    expect(await login('right')).toEqual({
      status: 'second_factor_required',
      sessionId: 'raw-1',
      user,
      factors: [],
      enrolmentRequired: true,
    });
    expect(created).toEqual([{ sub: 'alice', amr: ['pwd'], authTime: now, secondFactorPending: true }]);
  });

  it('creates a pending session and names the factors of a user who has one, whatever the policy', async () => {
    const { login, user } = setUp('optional', undefined, true);
    expect(await login('right')).toEqual({
      status: 'second_factor_required',
      sessionId: 'raw-1',
      user,
      factors: ['totp'],
      enrolmentRequired: false,
    });
  });

  it('creates no session for a wrong password', async () => {
    const { login, created } = setUp('optional');
    await expect(login('wrong')).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(created).toEqual([]);
  });
});

describe('completing a sign-in', () => {
  it('makes the pending session full with otp added, after a right code only, and records both', async () => {
    const { service, completed, pendingSession, recorded } = setUp('required', undefined, true);
    await expect(service.withTotp(pendingSession, '000000', '192.0.2.1')).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
    expect(completed).toEqual([]);
    expect(await service.withTotp(pendingSession, '123456', '192.0.2.1')).toEqual({
      user: pendingSession.user,
      sessionId: 'renewed-1',
    });
    expect(completed).toEqual([{ idHash: 'pending-hash', amr: ['pwd', 'otp'] }]);
    expect(recorded).toEqual([
      {
        type: 'sign_in.failed',
        actor: 'alice',
        subject: 'alice',
        clientAddress: '192.0.2.1',
        detail: { method: 'totp' },
      },
      {
        type: 'sign_in.succeeded',
        actor: 'alice',
        subject: 'alice',
        clientAddress: '192.0.2.1',
        detail: { amr: ['pwd', 'otp'] },
      },
    ]);
  });

  it('completes the pending session with a passkey asked for it, and signs in anew (hwk) with one asked by nobody', async () => {
    const { service, completed, created, pendingSession, user } = setUp('required', undefined, true);
    expect(await service.withPasskey('for-the-pending-sign-in', pendingSession, ['asked-here'], '192.0.2.1')).toEqual({
      status: 'completed',
      sessionId: 'renewed-1',
      user,
    });
    expect(completed).toEqual([{ idHash: 'pending-hash', amr: ['pwd', 'hwk'] }]);
    expect(await service.withPasskey('passwordless', null, ['asked-here'], '192.0.2.1')).toEqual({
      status: 'authenticated',
      sessionId: 'raw-1',
      user,
    });
    expect(created).toEqual([{ sub: 'alice', amr: ['hwk'], authTime: now }]);
  });
});

describe("stepping up to a client's second factor", () => {
  it('makes the session pending and asks a user without a factor to enrol one, whatever the policy', async () => {
    const { service, steppedUp, fullSession, user } = setUp('optional');
    expect(await service.stepUp(fullSession())).toEqual({
      status: 'second_factor_required',
      sessionId: 'stepped-1',
      user,
      factors: [],
      enrolmentRequired: true,
    });
    expect(steppedUp).toEqual(['full-hash']);
  });

  it("asks a user who has a factor for it, like the login's answer", async () => {
    const { service, fullSession } = setUp('optional', undefined, true);
    expect(await service.stepUp(fullSession())).toMatchObject({ factors: ['totp'], enrolmentRequired: false });
  });

  it('refuses a session signed in with a second factor (409) and one that ended meanwhile (401), changing nothing', async () => {
    const { service, steppedUp, fullSession } = setUp('optional');
    for (const amr of [['pwd', 'otp'], ['hwk']])
      await expect(service.stepUp(fullSession({ amr }))).rejects.toMatchObject({
        status: 409,
        code: 'STEP_UP_NOT_NEEDED',
      });
    expect(steppedUp).toEqual([]);
    await expect(service.stepUp(fullSession({ idHash: 'gone' }))).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('awaits the enrolment for the stepped-up pending session only, and its factor completes it', async () => {
    const { service, completed, pendingSession } = setUp('optional');
    expect(await service.awaitedFactors(pendingSession)).toEqual({ factors: [], enrolmentRequired: false });
    const stepped = { ...pendingSession, session: { ...pendingSession.session, secondFactorRequired: true } };
    expect(await service.awaitedFactors(stepped)).toEqual({ factors: [], enrolmentRequired: true });
    expect(await service.completeSecondFactor(stepped, 'otp', '192.0.2.1')).toBe('renewed-1');
    expect(completed).toEqual([{ idHash: 'pending-hash', amr: ['pwd', 'otp'] }]);
  });
});

describe('signing in through an upstream provider', () => {
  it('records amr fed and passes the same steps: a full session, or a pending one when a second factor is due', async () => {
    const optional = setUp('optional');
    expect(await optional.service.withUpstream(optional.user, { clientAddress: '192.0.2.7' })).toEqual({
      status: 'authenticated',
      sessionId: 'raw-1',
      user: optional.user,
    });
    expect(optional.created).toEqual([{ sub: 'alice', amr: ['fed'], authTime: now }]);
    expect(optional.recorded).toEqual([
      expect.objectContaining({
        type: 'sign_in.succeeded',
        actor: 'alice',
        clientAddress: '192.0.2.7',
        detail: { amr: ['fed'] },
      }),
    ]);
    const required = setUp('required');
    expect(await required.service.withUpstream(required.user, { clientAddress: '192.0.2.7' })).toMatchObject({
      status: 'second_factor_required',
      factors: [],
    });
    expect(required.created).toEqual([{ sub: 'alice', amr: ['fed'], authTime: now, secondFactorPending: true }]);
  });
});

describe('signing in a user who must verify their e-mail', () => {
  it('answers 403 EMAIL_NOT_VERIFIED and creates no session, after the second factor step', async () => {
    const unverified = newIdentity({ emailVerificationRequired: true, emailVerified: false }).user;
    const { login, created } = setUp('optional', unverified);
    await expect(login('right')).rejects.toMatchObject({ status: 403, code: 'EMAIL_NOT_VERIFIED' });
    expect(created).toEqual([]);
    // docs/oidc.md, "Interaction: the sign-in steps": the second factor comes first.
    const second = setUp('required', unverified);
    expect(await second.login('right')).toMatchObject({ status: 'second_factor_required' });
  });
});
