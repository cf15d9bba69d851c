import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRegistration } from '../../src/accounts/registration.js';
import { systemClock } from '../../src/clock.js';
import { createEventLog } from '../../src/events/index.js';
import { createAccountRules } from '../../src/federation/account-rules.js';
import { createConnectionService } from '../../src/federation/connection-service.js';
import { createPendingLinks } from '../../src/federation/pending-link.js';
import { createUpstreamStates, newBinding } from '../../src/federation/upstream-states.js';
import type { UpstreamDirectory, UpstreamProvider } from '../../src/federation/upstream-provider.js';
import type { UserFactorReader } from '../../src/accounts/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { userRecord } from '../storage/conformance/records.js';
import { cleanTables } from '../storage/conformance/subject.js';
import { testConfig } from '../support/config-fixture.js';

const provider = (overrides: Partial<UpstreamProvider> = {}): UpstreamProvider => ({
  id: 'corp',
  type: 'generic_oauth',
  displayName: 'Corp',
  iconUrl: null,
  clientId: 'c',
  clientSecret: 's',
  authorizationUrl: 'https://sso.example/auth',
  tokenUrl: 'https://sso.example/token',
  userinfoUrl: null,
  emailUrl: null,
  scopes: ['openid'],
  emailConflictStrategy: 'auto_link',
  openId: true,
  ...overrides,
});
const context = { clientAddress: '192.0.2.1', locale: 'en' };

/** The account rules and the connection service on real storage: races, deleted users, unverified local addresses. */
describe.each(databaseKinds)('account rules on %s', (kind) => {
  let t: TestDatabase;
  let rules: ReturnType<typeof createAccountRules>;
  const queued: unknown[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const { storage } = t;
    const events = createEventLog({ storage, logger: pino({ level: 'silent' }), clock: systemClock });
    const base = testConfig();
    const registration = createRegistration({
      db: storage.db,
      transaction: (work) => storage.transaction(work),
      users: storage.repositories.users,
      termAcceptances: storage.repositories.termAcceptances,
      outbox: { queue: async (_tx, job) => void queued.push(job) },
      events,
      config: {
        ...base,
        registration: { ...base.registration, enabled: true },
        email: { ...base.email, enabled: true },
      },
      hashPassword: async () => 'unused',
      // Unlimited: accounts come from upstreams here (registerFromUpstream), which the limit does not count.
      rateLimit: { count: () => Promise.resolve() },
      clock: systemClock,
    });
    rules = createAccountRules({
      transaction: (work) => storage.transaction(work),
      db: storage.db,
      users: storage.repositories.users,
      connections: storage.repositories.connections,
      createUser: (tx, input) => registration.registerFromUpstream(tx, input),
      events,
      clock: systemClock,
    });
  });
  afterAll(() => t?.destroy());
  beforeEach(async () => {
    await cleanTables(t.db, ['connections', 'events', 'users']);
    await t.storage.repositories.users.insertMany(t.storage.db, [
      userRecord('alice', { emailVerified: true, passwordHash: 'x' }),
      userRecord('squatter', { email: 'victim@example.com', emailVerified: false, passwordHash: 'x' }),
      userRecord('gone', { deletedAt: 5 }),
    ]);
  });

  it('signs up a new address once when the same upstream account arrives twice at the same moment', async () => {
    const identity = { subject: 'new-1', email: 'new@example.com', emailVerified: true };
    const decisions = await Promise.all([
      rules.login(provider(), identity, context),
      rules.login(provider(), identity, context),
    ]);
    const subs = decisions.map((d) => (d.kind === 'sign_in' ? d.user.sub : d.kind));
    expect(subs[0]).toBe(subs[1]);
    expect(await t.db('users').where({ email_normalized: 'new@example.com' })).toHaveLength(1);
    expect(await t.db('connections').where({ subject: 'new-1' })).toHaveLength(1);
    expect((await t.db('events').select('type').orderBy('id')).map((e: { type: string }) => e.type)).toEqual([
      'registration',
      'provider.linked',
    ]);
    expect(queued).toEqual([]);
  });

  it('signs up no address the upstream does not assert verified: EMAIL_NOT_VERIFIED, no user, no connection, no mail', async () => {
    queued.length = 0;
    await expect(
      rules.login(provider(), { subject: 'u-1', email: 'maybe@example.com', emailVerified: false }, context),
    ).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED', namesProvider: true });
    expect(await t.db('users').where({ email_normalized: 'maybe@example.com' })).toEqual([]);
    expect([await t.db('connections'), await t.db('events'), queued]).toEqual([[], [], []]);
  });

  it('never auto-links into an account whose own address was never verified', async () => {
    expect(
      await rules.login(provider(), { subject: 'v-1', email: 'victim@example.com', emailVerified: true }, context),
    ).toEqual({ kind: 'link_required', email: 'victim@example.com' });
    expect(await t.db('connections')).toEqual([]);
  });

  it('refuses a connection whose user was deleted, and a second account at one provider', async () => {
    await t.storage.repositories.connections.insert(t.storage.db, {
      providerId: 'corp',
      subject: 'g-1',
      sub: 'gone',
      email: null,
      linkedAt: 1,
    });
    await expect(
      rules.login(provider(), { subject: 'g-1', email: null, emailVerified: false }, context),
    ).rejects.toMatchObject({ code: 'ACCOUNT_DELETED' });
    await rules.link(provider(), { subject: 'a-1', email: null, emailVerified: false }, 'alice', context);
    await rules.link(provider(), { subject: 'a-1', email: null, emailVerified: false }, 'alice', context);
    await expect(
      rules.login(provider(), { subject: 'a-2', email: 'alice@example.com', emailVerified: true }, context),
    ).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
  });

  it('removes a connection while a passkey or another usable connection is left, not the last way in', async () => {
    const usable: UpstreamProvider[] = [provider(), provider({ id: 'other' })];
    const directory: UpstreamDirectory = {
      list: async () => usable,
      find: async (id) => usable.find((p) => p.id === id) ?? null,
    };
    let passkeys = 0;
    const factors: UserFactorReader = {
      summarize: async (subs) =>
        new Map(subs.map((s) => [s, { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: passkeys }])),
    };
    const service = createConnectionService({
      db: t.storage.db,
      transaction: (work) => t.storage.transaction(work),
      connections: t.storage.repositories.connections,
      providers: t.storage.repositories.identityProviders,
      directory,
      factors,
      events: createEventLog({ storage: t.storage, logger: pino({ level: 'silent' }), clock: systemClock }),
    });
    const user = userRecord('nopass', { passwordHash: null });
    await t.storage.repositories.users.insert(t.storage.db, user);
    for (const id of ['corp', 'other'])
      await t.storage.repositories.connections.insert(t.storage.db, {
        providerId: id,
        subject: `n-${id}`,
        sub: 'nopass',
        email: null,
        linkedAt: 1,
      });
    await service.remove(user, 'other', context);
    await expect(service.remove(user, 'corp', context)).rejects.toMatchObject({
      status: 409,
      code: 'LAST_SIGN_IN_METHOD',
    });
    passkeys = 1;
    await service.remove(user, 'corp', context);
    expect(await service.list('nopass')).toEqual([]);
  });
});

describe('states and pending links without storage tricks', () => {
  it('a pending link opens only unexpired and sealed here', () => {
    let now = 1_000;
    const clock = { now: () => now };
    const links = createPendingLinks({ cookiePassword: 'p'.repeat(32), clock });
    const sealed = links.seal({ providerId: 'gh', subject: '1', email: 'a@x.io' });
    expect(links.open(sealed)).toEqual({ providerId: 'gh', subject: '1', email: 'a@x.io', expiresAt: 601_000 });
    expect(createPendingLinks({ cookiePassword: 'q'.repeat(32), clock }).open(sealed)).toBeNull();
    expect([links.open(null), links.open('garbage')]).toEqual([null, null]);
    now = 601_000;
    expect(links.open(sealed)).toBeNull();
  });

  it('derives a verifier whose S256 challenge is sent, and a nonce, from the state; stores only hashes', async () => {
    const stored: unknown[] = [];
    const states = createUpstreamStates({
      db: {} as never,
      states: { insert: async (_tx, record) => void stored.push(record), consume: async () => null },
      clock: systemClock,
      key: 'k',
    });
    const binding = newBinding();
    const secrets = await states.begin({ providerId: 'gh', intent: 'login', returnTo: '/', linkSub: null, binding });
    const { createHash } = await import('node:crypto');
    expect(secrets.codeChallenge).toBe(createHash('sha256').update(secrets.codeVerifier).digest('base64url'));
    expect(secrets.codeVerifier).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(stored)).not.toContain(secrets.state);
    expect(JSON.stringify(stored)).not.toContain(secrets.codeVerifier);
    expect(JSON.stringify(stored)).not.toContain(binding);
    await expect(states.redeem({ state: secrets.state, providerId: 'gh', binding })).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
  });
});
