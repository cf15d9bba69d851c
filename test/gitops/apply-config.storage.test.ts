import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig, testIdentityProvider, testTerm, testUser } from '../support/config-fixture.js';
import { ApplyConflictError, applyConfig, hashClientSecret, SENSITIVE, type Change } from '../../src/gitops/index.js';
import { openStorage } from '../../src/app.js';
import { knexOf } from '../../src/storage/knex/on-knex.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { knexClientRepository } from '../../src/storage/knex/clients.js';
import { knexTermRepository } from '../../src/storage/knex/terms.js';
import { knexIdentityProviderRepository } from '../../src/storage/knex/identity-providers.js';
import type { Clock } from '../../src/clock.js';
import type { GrantRevoker, Storage, Tx } from '../../src/storage/repositories.js';
import type { UserRecord } from '../../src/model/index.js';

/** A revoker that writes what it revoked into settings, inside apply's transaction. */
const settingsRevoker: GrantRevoker = {
  async revokeUser(tx: Tx, sub: string) {
    await knexOf(tx)('settings').insert({ key: `revoked:user:${sub}`, value: 'yes', updated_at: 1 });
  },
  async revokeClient(tx: Tx, clientId: string) {
    await knexOf(tx)('settings').insert({ key: `revoked:client:${clientId}`, value: 'yes', updated_at: 1 });
  },
  async revokeUsersOfClient(tx: Tx, clientId: string, subs: string[]) {
    await knexOf(tx)('settings').insert(
      subs.map((sub) => ({ key: `revoked:access:${clientId}:${sub}`, value: 'yes', updated_at: 1 })),
    );
  },
};
/** The storage with other revokers in place of its own. */
function withRevokers(storage: Storage, grantRevokers: GrantRevoker[]): Storage {
  return { ...storage, repositories: { ...storage.repositories, grantRevokers } };
}

function fixedClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => (now = ms) };
}

function summaryOf(changes: Change[]): string[] {
  return changes.map((c) => `${c.action} ${c.kind} ${c.key}`);
}

function databaseUser(sub: string, email: string): UserRecord {
  return {
    sub,
    managedBy: 'database',
    email,
    role: 'user',
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 1,
    updatedAt: 1,
  };
}

async function counts(t: TestDatabase): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of ['users', 'clients', 'terms', 'term_versions', 'identity_providers', 'settings']) {
    const [row] = await t.db(table).count({ n: '*' });
    result[table] = Number(row.n);
  }
  return result;
}

describe.each(databaseKinds)('applyConfig on %s', (kind) => {
  let t: TestDatabase;
  /** The test database's storage, revoking through settingsRevoker. */
  let storage: Storage;
  const clock = fixedClock(1_700_000_000_000);
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    storage = withRevokers(t.storage, [settingsRevoker]);
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    for (const table of ['users', 'clients', 'terms', 'term_versions', 'identity_providers', 'settings', 'events'])
      await t.db(table).delete();
  });

  const full = testConfig({
    users: [testUser({ sub: 'alice', role: 'admin' }), testUser({ sub: 'bob', passwordHash: null })],
    clients: [
      testClient({ clientId: 'web' }),
      testClient({ clientId: 'spa', clientSecret: null, tokenEndpointAuthMethod: 'none' }),
    ],
    terms: [testTerm()],
    identityProviders: [testIdentityProvider()],
  });

  it('creates everything, then a second apply changes nothing', async () => {
    const first = await applyConfig(storage, full, { clock });
    expect(first.applied).toBe(true);
    expect(summaryOf(first.plan.changes)).toEqual([
      'create identity_provider github',
      'create client spa',
      'create client web',
      'create user alice',
      'create user bob',
      'create term tos',
    ]);
    expect(first.plan.summary).toEqual({ create: 6, update: 0, remove: 0 });

    const alice = await knexUserRepository.findBySub(t.tx, 'alice');
    expect(alice).toMatchObject({
      managedBy: 'config',
      role: 'admin',
      email: 'alice@example.com',
      deletedAt: null,
      createdAt: clock.now(),
    });
    const web = await knexClientRepository.findById(t.tx, 'web');
    expect(web?.secretHash).toBe(hashClientSecret('secret-of-web-0123456789abcdef'));
    expect((await knexClientRepository.findById(t.tx, 'spa'))?.secretHash).toBeNull();
    const github = await knexIdentityProviderRepository.findById(t.tx, 'github');
    expect(github?.clientSecretFingerprint).toMatch(/^hmac-sha256:/);
    expect(JSON.stringify(await t.db('identity_providers'))).not.toContain('gh-secret-0123456789');
    expect((await knexTermRepository.listVersions(t.tx, 'tos')).map((v) => v.version)).toEqual(['1']);

    const second = await applyConfig(storage, full, { clock });
    expect(second.applied).toBe(false);
    expect(second.plan.changes).toEqual([]);

    // One config.applied event for the apply that changed something, none for the one that did not.
    const { events } = await storage.repositories.events.list(storage.db, { page: 1, pageSize: 10 });
    expect(events).toEqual([
      {
        id: expect.any(Number),
        time: clock.now(),
        type: 'config.applied',
        actor: 'config',
        subject: null,
        clientAddress: null,
        clientId: null,
        detail: { create: 6, update: 0, remove: 0 },
      },
    ]);
  });

  it('shows secrets only as (sensitive) and compares them by hash', async () => {
    const first = await applyConfig(storage, full, { clock });
    const created = JSON.stringify(first.plan.changes);
    expect(created).not.toContain('secret-of-web');
    expect(created).not.toContain('gh-secret');
    expect(created).not.toContain('$argon2id');
    const rotated = testConfig({
      ...full,
      clients: [testClient({ clientId: 'web', clientSecret: 'a-brand-new-secret-value-123456' }), full.clients[1]],
      identityProviders: [testIdentityProvider({ clientSecret: 'a-new-upstream-secret' })],
    });
    const plan = (await applyConfig(storage, rotated, { clock, dryRun: true })).plan;
    expect(plan.changes).toEqual([
      {
        kind: 'identity_provider',
        action: 'update',
        key: 'github',
        fields: [{ field: 'client_secret', old: SENSITIVE, new: SENSITIVE }],
      },
      {
        kind: 'client',
        action: 'update',
        key: 'web',
        fields: [{ field: 'client_secret', old: SENSITIVE, new: SENSITIVE }],
      },
    ]);
    expect(JSON.stringify(plan.changes)).not.toContain('a-brand-new-secret');
  });

  it('updates changed fields only, old → new, and adds a term version on a new version string', async () => {
    await applyConfig(storage, full, { clock });
    clock.set(1_700_000_100_000);
    const changed = testConfig({
      ...full,
      users: [testUser({ sub: 'alice', role: 'user', email: 'Alice@New.example' }), full.users[1]],
      clients: [
        testClient({
          clientId: 'web',
          redirectUris: ['https://web.example.com/callback', 'https://web.example.com/cb2'],
        }),
        full.clients[1],
      ],
      terms: [testTerm({ version: '2' })],
    });
    const result = await applyConfig(storage, changed, { clock });
    expect(result.plan.changes).toEqual([
      {
        kind: 'client',
        action: 'update',
        key: 'web',
        fields: [
          {
            field: 'redirect_uris',
            old: ['https://web.example.com/callback'],
            new: ['https://web.example.com/callback', 'https://web.example.com/cb2'],
          },
        ],
      },
      {
        kind: 'user',
        action: 'update',
        key: 'alice',
        fields: [
          { field: 'email', old: 'alice@example.com', new: 'Alice@New.example' },
          { field: 'role', old: 'admin', new: 'user' },
        ],
      },
      { kind: 'term', action: 'update', key: 'tos', fields: [{ field: 'version', old: '1', new: '2' }] },
    ]);
    const alice = await knexUserRepository.findBySub(t.tx, 'alice');
    expect(alice).toMatchObject({ email: 'Alice@New.example', role: 'user', updatedAt: 1_700_000_100_000 });
    expect((await knexUserRepository.findBySub(t.tx, 'bob'))?.updatedAt).toBe(1_700_000_000_000);
    expect((await knexTermRepository.listVersions(t.tx, 'tos')).map((v) => v.version)).toEqual(['1', '2']);
    clock.set(1_700_000_000_000);
  });

  it("writes a user's declared profile, shows it in the plan (undeclared fields not listed on create), and clears a field that leaves the file", async () => {
    const profiled = testUser({ sub: 'ada', name: 'Ada Lovelace', givenName: 'Ada', locale: 'de' });
    const created = await applyConfig(storage, testConfig({ ...full, users: [profiled] }), { clock });
    expect(created.plan.changes.find((c) => c.key === 'ada')?.fields).toEqual([
      { field: 'email', old: null, new: 'ada@example.com' },
      { field: 'role', old: null, new: 'user' },
      { field: 'email_verified', old: null, new: true },
      { field: 'password_hash', old: null, new: SENSITIVE },
      { field: 'name', old: null, new: 'Ada Lovelace' },
      { field: 'given_name', old: null, new: 'Ada' },
      { field: 'locale', old: null, new: 'de' },
    ]);
    expect(await knexUserRepository.findBySub(t.tx, 'ada')).toMatchObject({
      name: 'Ada Lovelace',
      givenName: 'Ada',
      familyName: null,
      locale: 'de',
    });

    const edited = testUser({ sub: 'ada', name: 'Augusta Ada King', familyName: 'King' });
    const result = await applyConfig(storage, testConfig({ ...full, users: [edited] }), { clock });
    expect(result.plan.changes.find((c) => c.key === 'ada')).toEqual({
      kind: 'user',
      action: 'update',
      key: 'ada',
      fields: [
        { field: 'name', old: 'Ada Lovelace', new: 'Augusta Ada King' },
        { field: 'given_name', old: 'Ada', new: null },
        { field: 'family_name', old: null, new: 'King' },
        { field: 'locale', old: 'de', new: null },
      ],
    });
    expect(await knexUserRepository.findBySub(t.tx, 'ada')).toMatchObject({
      name: 'Augusta Ada King',
      givenName: null,
      familyName: 'King',
      locale: null,
    });
    expect(
      (await applyConfig(storage, testConfig({ ...full, users: [edited] }), { clock })).plan.changes.filter(
        (c) => c.kind === 'user',
      ),
    ).toEqual([]);
  });

  it('updates a client whose ID token algorithm changed, and changes nothing more', async () => {
    await applyConfig(storage, full, { clock });
    const es256 = testConfig({
      ...full,
      clients: [testClient({ clientId: 'web', idTokenSignedResponseAlg: 'ES256' }), full.clients[1]],
    });
    const result = await applyConfig(storage, es256, { clock });
    expect(result.plan.changes).toEqual([
      {
        kind: 'client',
        action: 'update',
        key: 'web',
        fields: [{ field: 'id_token_signed_response_alg', old: 'RS256', new: 'ES256' }],
      },
    ]);
    expect((await knexClientRepository.findById(t.tx, 'web'))?.idTokenSignedResponseAlg).toBe('ES256');
    expect((await applyConfig(storage, es256, { clock })).plan.changes).toEqual([]);
  });

  it('prunes: soft-deletes a removed user and revokes its grants, deletes a removed client, restores a returning user', async () => {
    await applyConfig(storage, full, { clock });
    const pruned = testConfig({ users: [full.users[0]], clients: [full.clients[0]], terms: [], identityProviders: [] });
    const result = await applyConfig(storage, pruned, { clock });
    expect(summaryOf(result.plan.changes)).toEqual([
      'remove identity_provider github',
      'remove client spa',
      'remove user bob',
      'remove term tos',
    ]);
    expect((await knexUserRepository.findBySub(t.tx, 'bob'))?.deletedAt).toBe(clock.now());
    expect(await knexClientRepository.findById(t.tx, 'spa')).toBeNull();
    expect(await t.db('settings').where('key', 'like', 'revoked:%').orderBy('key').pluck('key')).toEqual([
      'revoked:client:spa',
      'revoked:user:bob',
    ]);
    expect(await knexTermRepository.findById(t.tx, 'tos')).toBeNull();
    expect((await applyConfig(storage, pruned, { clock })).plan.changes).toEqual([]);

    const back = await applyConfig(storage, testConfig({ users: full.users }), { clock });
    const restore = back.plan.changes.find((c) => c.key === 'bob');
    expect(restore).toEqual({
      kind: 'user',
      action: 'update',
      key: 'bob',
      fields: [{ field: 'deleted_at', old: new Date(clock.now()).toISOString(), new: null }],
    });
    expect((await knexUserRepository.findBySub(t.tx, 'bob'))?.deletedAt).toBeNull();
  });

  it('never touches database-managed users', async () => {
    await knexUserRepository.insert(t.tx, databaseUser('db-1', 'carol@example.com'));
    await applyConfig(storage, full, { clock });
    const result = await applyConfig(storage, testConfig(), { clock });
    expect(summaryOf(result.plan.changes)).not.toContain('remove user db-1');
    expect(await knexUserRepository.findBySub(t.tx, 'db-1')).toEqual(databaseUser('db-1', 'carol@example.com'));
  });

  it('refuses a collision with a database-managed user, naming both sides, and writes nothing', async () => {
    await knexUserRepository.insert(t.tx, databaseUser('db-1', 'Carol@Example.com'));
    await knexUserRepository.insert(t.tx, databaseUser('dave', 'dave@example.com'));
    const before = await counts(t);
    const colliding = testConfig({
      ...full,
      users: [
        testUser({ sub: 'alice' }),
        testUser({ sub: 'carol', email: 'carol@example.com' }),
        testUser({ sub: 'dave', email: 'd@example.com' }),
      ],
    });
    const error = await applyConfig(storage, colliding, { clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyConflictError);
    expect((error as ApplyConflictError).problems).toEqual([
      'users[1]: e-mail "carol@example.com" is already used by database-managed user "db-1" <Carol@Example.com>',
      'users[2]: sub "dave" is already taken by database-managed user "dave" <dave@example.com>',
    ]);
    expect(await counts(t)).toEqual(before);
    await expect(applyConfig(storage, colliding, { clock, dryRun: true })).rejects.toBeInstanceOf(ApplyConflictError);
  });

  it('lets config users swap e-mails in one apply', async () => {
    const two = testConfig({
      users: [testUser({ sub: 'a', email: 'one@example.com' }), testUser({ sub: 'b', email: 'two@example.com' })],
    });
    await applyConfig(storage, two, { clock });
    const swapped = testConfig({
      users: [testUser({ sub: 'a', email: 'two@example.com' }), testUser({ sub: 'b', email: 'one@example.com' })],
    });
    await applyConfig(storage, swapped, { clock });
    expect((await knexUserRepository.findBySub(t.tx, 'a'))?.email).toBe('two@example.com');
    expect((await knexUserRepository.findBySub(t.tx, 'b'))?.email).toBe('one@example.com');
    expect((await applyConfig(storage, swapped, { clock })).plan.changes).toEqual([]);
  });

  it('rolls everything back when a write fails half-way', async () => {
    await applyConfig(storage, full, { clock });
    const before = await counts(t);
    const failing = withRevokers(t.storage, [
      settingsRevoker,
      {
        revokeUser: async () => {
          throw new Error('revocation failed');
        },
        revokeClient: async () => {},
        revokeUsersOfClient: async () => {},
      },
    ]);
    await expect(applyConfig(failing, testConfig({ users: [full.users[0]] }), { clock })).rejects.toThrow(
      'revocation failed',
    );
    expect(await counts(t)).toEqual(before);
    expect((await storage.repositories.events.list(storage.db, { page: 1, pageSize: 10 })).total).toBe(1);
    expect((await knexUserRepository.findBySub(t.tx, 'bob'))?.deletedAt).toBeNull();
    expect(await knexClientRepository.findById(t.tx, 'spa')).not.toBeNull();
  });

  it('serialises concurrent applies: both succeed, the second sees the first and has nothing to do', async () => {
    const big = testConfig({
      users: Array.from({ length: 1500 }, (_, i) => testUser({ sub: `user-${i}` })),
      clients: Array.from({ length: 50 }, (_, i) => testClient({ clientId: `client-${i}` })),
    });
    const other = openStorage(t.config);
    try {
      const results = await Promise.all([
        applyConfig(storage, big, { clock }),
        applyConfig(withRevokers(other, [settingsRevoker]), big, { clock }),
      ]);
      const applied = results.filter((r) => r.applied);
      expect(applied.length).toBe(1);
      expect(applied[0].plan.summary).toEqual({ create: 1550, update: 0, remove: 0 });
      expect(results.find((r) => !r.applied)?.plan.changes).toEqual([]);
      expect((await counts(t)).users).toBe(1500);
    } finally {
      await other.close();
    }
  });

  it("uses a revoker's batch form when it has one, 400 ids at a time", async () => {
    const batches: number[] = [];
    const batching: GrantRevoker = {
      revokeUser: async () => {
        throw new Error('the single form must not be used');
      },
      revokeClient: async () => {
        throw new Error('the single form must not be used');
      },
      async revokeUsers(tx, subs) {
        batches.push(subs.length);
        await knexOf(tx)('settings').insert(
          subs.map((sub) => ({ key: `revoked:user:${sub}`, value: 'yes', updated_at: 1 })),
        );
      },
      async revokeClients(_tx, clientIds) {
        batches.push(clientIds.length);
      },
      revokeUsersOfClient: async () => {},
    };
    const batchStorage = withRevokers(t.storage, [batching]);
    const many = testConfig({
      users: Array.from({ length: 900 }, (_, i) => testUser({ sub: `r-${i}` })),
      clients: [testClient()],
    });
    await applyConfig(batchStorage, many, { clock });
    await applyConfig(batchStorage, testConfig(), { clock });
    expect(batches).toEqual([1, 400, 400, 100]);
    expect(Number((await t.db('settings').where('key', 'like', 'revoked:user:%').count({ n: '*' }))[0].n)).toBe(900);
  });

  it('reports progress while creating many rows', async () => {
    const progress: string[] = [];
    const many = testConfig({ users: Array.from({ length: 900 }, (_, i) => testUser({ sub: `p-${i}` })) });
    await applyConfig(storage, many, { clock, onProgress: (p) => progress.push(`${p.kind} ${p.done}/${p.total}`) });
    expect(progress.at(-1)).toBe('user 900/900');
  });
});
