import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { grantRevokers } from '../../src/storage/knex/grant-revokers.js';
import { knexSessionRepository as sessions } from '../../src/storage/knex/sessions.js';
import { knexTokenRepository as tokens } from '../../src/storage/knex/tokens.js';
import type { GrantRevoker, Tx } from '../../src/storage/repositories.js';
import type { Knex } from 'knex';
import { txOf } from '../../src/storage/knex/on-knex.js';

/** More ids than one SQLite IN list holds (400). */
const many = Array.from({ length: 450 }, (_, i) => `u${i}`);

/** One session, and one grant of `clientId` with one refresh token, for `sub`. */
async function seed(db: Knex, sub: string, clientId: string): Promise<void> {
  await sessions.insert(txOf(db), {
    idHash: `s-${sub}-${clientId}`,
    publicId: `p-${sub}-${clientId}`,
    sub,
    createdAt: 1,
    lastSeenAt: 1,
    expiresAt: 9e12,
    authTime: 1,
    amr: ['pwd'],
    secondFactorPending: false,
    secondFactorRequired: false,
  });
  const grantId = `g-${sub}-${clientId}`;
  await tokens.insertGrant(txOf(db), {
    grantId,
    clientId,
    sub,
    scopes: ['openid'],
    authTime: 1,
    amr: ['pwd'],
    claims: null,
    sessionId: null,
    sid: null,
    revokedAt: null,
    expiresAt: 9e12,
    createdAt: 1,
  });
  await tokens.insertRefreshToken(txOf(db), {
    tokenHash: `r-${grantId}`,
    grantId,
    clientId,
    sub,
    scopes: ['openid'],
    expiresAt: 9e12,
    rotatedAt: null,
    revokedAt: null,
    createdAt: 1,
  });
}

/** Per sub: sessions left, grants and refresh tokens still live. */
async function standing(db: Knex, sub: string) {
  const count = async (table: string, live: boolean) => {
    const query = db(table).where({ sub });
    if (live) query.whereNull('revoked_at');
    const [row] = await query.count({ n: '*' });
    return Number(row.n);
  };
  return {
    sessions: await count('sessions', false),
    grants: await count('grants', true),
    refreshTokens: await count('refresh_tokens', true),
  };
}

/** Every revoker's batch form, as apply calls them. */
async function revokeAll(tx: Tx, form: 'revokeUsers' | 'revokeClients', ids: string[]): Promise<void> {
  for (const revoker of grantRevokers as Required<GrantRevoker>[]) await revoker[form](tx, ids);
}

describe.each(databaseKinds)('the built-in grant revokers on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    for (const table of ['refresh_tokens', 'grants', 'sessions']) await t.db(table).delete();
  });

  it('have batch forms', () => {
    for (const revoker of grantRevokers) {
      expect(revoker.revokeUsers).toBeTypeOf('function');
      expect(revoker.revokeClients).toBeTypeOf('function');
    }
  });

  it("revoke many users' sessions, grants and refresh tokens at once, and nobody else's", async () => {
    await t.db.transaction(async (trx) => {
      for (const sub of [...many, 'kept']) await seed(trx, sub, 'web');
    });
    await revokeAll(t.storage.db, 'revokeUsers', many);
    for (const sub of [many[0], many[449]])
      expect(await standing(t.db, sub)).toEqual({ sessions: 0, grants: 0, refreshTokens: 0 });
    expect(await standing(t.db, 'kept')).toEqual({ sessions: 1, grants: 1, refreshTokens: 1 });
    const [left] = await t.db('grants').whereNull('revoked_at').count({ n: '*' });
    expect(Number(left.n)).toBe(1);
  });

  it("revoke many clients' grants at once; their users keep their sessions and other grants", async () => {
    await t.db.transaction(async (trx) => {
      for (const clientId of [...many, 'kept']) await seed(trx, 'alice', clientId);
    });
    await revokeAll(t.storage.db, 'revokeClients', many);
    expect(await standing(t.db, 'alice')).toEqual({ sessions: many.length + 1, grants: 1, refreshTokens: 1 });
    expect((await tokens.findGrant(t.tx, 'g-alice-kept'))?.revokedAt).toBeNull();
  });

  it('revoke one user or one client with the single forms', async () => {
    await seed(t.db, 'bob', 'web');
    await seed(t.db, 'carol', 'spa');
    for (const revoker of grantRevokers) {
      await revoker.revokeUser(t.storage.db, 'bob');
      await revoker.revokeClient(t.storage.db, 'spa');
    }
    expect(await standing(t.db, 'bob')).toEqual({ sessions: 0, grants: 0, refreshTokens: 0 });
    expect(await standing(t.db, 'carol')).toEqual({ sessions: 1, grants: 0, refreshTokens: 0 });
  });
});
