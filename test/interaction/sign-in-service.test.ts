import { describe, expect, it } from 'vitest';
import { invalidCredentials, type PasswordLogin } from '../../src/accounts/password-login.js';
import type { CreateSessionInput, SessionService } from '../../src/accounts/sessions.js';
import type { AuthConfig } from '../../src/config/types.js';
import { createSignInService } from '../../src/interaction/sign-in-service.js';
import type { SessionRecord, UserRecord } from '../../src/model/index.js';
import { newIdentity, now, signInDeps } from './sign-in-fixtures.js';
import type { EventInput, EventLog } from '../../src/events/index.js';
import type { Tx } from '../../src/storage/repositories.js';

/** POST /api/auth/login's orchestration: whose password, the steps, then the session they allow. */
function setUp(policy: AuthConfig['secondFactor'], user: UserRecord = newIdentity().user) {
  const created: CreateSessionInput[] = [];
  const passwords: PasswordLogin = {
    async identify({ password }) {
      if (password !== 'right') throw invalidCredentials();
      return user;
    },
  };
  const sessions = {
    async create(input: CreateSessionInput) {
      created.push(input);
      return { id: `raw-${created.length}`, session: {} as SessionRecord };
    },
  } as unknown as SessionService;
  const deps = signInDeps({ secondFactorPolicy: policy });
  const recorded: EventInput[] = [];
  const events: EventLog = { record: async (_tx, event) => void recorded.push(event) };
  const service = createSignInService({ passwords, sessions, stepDeps: deps, events, db: {} as Tx, clock: deps.clock });
  const login = (password: string) => service.withPassword({ email: user.email, password, clientAddress: '192.0.2.1' });
  return { login, created, user, recorded, service };
}

describe('signing in with a password', () => {
  it('creates a full session when every step passes, and records the sign-in', async () => {
    const { login, created, user, recorded } = setUp('optional');
    expect(await login('right')).toEqual({ status: 'authenticated', sessionId: 'raw-1', user });
    expect(created).toEqual([{ sub: 'alice', amr: ['pwd'], authTime: now }]);
    expect(recorded).toEqual([{ type: 'sign_in.succeeded', actor: 'alice', subject: 'alice', clientAddress: '192.0.2.1', detail: { amr: ['pwd'] } }]);
  });

  it('creates a pending session and names the factors when the second factor step waits', async () => {
    const { login, created, user } = setUp('required');
    expect(await login('right')).toEqual({ status: 'second_factor_required', sessionId: 'raw-1', user, factors: [] });
    expect(created).toEqual([{ sub: 'alice', amr: ['pwd'], authTime: now, secondFactorPending: true }]);
  });

  it('creates no session for a wrong password', async () => {
    const { login, created } = setUp('optional');
    await expect(login('wrong')).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(created).toEqual([]);
  });
});

describe('signing in through an upstream provider', () => {
  it('records amr fed and passes the same steps: a full session, or a pending one when a second factor is due', async () => {
    const optional = setUp('optional');
    expect(await optional.service.withUpstream(optional.user, { clientAddress: '192.0.2.7' })).toEqual({ status: 'authenticated', sessionId: 'raw-1', user: optional.user });
    expect(optional.created).toEqual([{ sub: 'alice', amr: ['fed'], authTime: now }]);
    expect(optional.recorded).toEqual([expect.objectContaining({ type: 'sign_in.succeeded', actor: 'alice', clientAddress: '192.0.2.7', detail: { amr: ['fed'] } })]);
    const required = setUp('required');
    expect(await required.service.withUpstream(required.user, { clientAddress: '192.0.2.7' })).toMatchObject({ status: 'second_factor_required', factors: [] });
    expect(required.created).toEqual([{ sub: 'alice', amr: ['fed'], authTime: now, secondFactorPending: true }]);
  });
});

describe('signing in a user who must verify their e-mail', () => {
  it('answers 403 EMAIL_NOT_VERIFIED and creates no session, after the second factor step', async () => {
    const unverified = newIdentity({ emailVerificationRequired: true, emailVerified: false }).user;
    const { login, created } = setUp('optional', unverified);
    await expect(login('right')).rejects.toMatchObject({ status: 403, code: 'EMAIL_NOT_VERIFIED' });
    expect(created).toEqual([]);
    // DESIGN.md 12: the second factor comes first.
    const second = setUp('required', unverified);
    expect(await second.login('right')).toMatchObject({ status: 'second_factor_required' });
  });
});
