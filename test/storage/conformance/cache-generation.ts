import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { CacheGenerationRepository, Repositories, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { grantRecord, refreshTokenRecord, userRecord } from './records.js';

/** The cache generation moves with every change a cache may hold, in the change's own transaction, and with nothing else. */
export function describeCacheGeneration(s: Subject): void {
  let generation: CacheGenerationRepository;
  let repositories: Repositories;
  let db: Tx;
  beforeAll(() => {
    ({ db, repositories } = s);
    generation = repositories.cacheGeneration;
  });
  beforeEach(() =>
    cleanTables(s.database.db, ['refresh_tokens', 'grants', 'revoked_access_tokens', 'sessions', 'users']),
  );

  /** Whether `change` moved the generation. */
  async function moves(change: () => Promise<unknown>): Promise<boolean> {
    const before = await generation.read(db);
    await change();
    const after = await generation.read(db);
    expect(after).toBeGreaterThanOrEqual(before);
    return after !== before;
  }

  it('moves when a grant is revoked or deleted, an access token revoked, a user changed or erased', async () => {
    const { tokens, users } = repositories;
    await users.insert(db, userRecord('alice'));
    await tokens.insertGrant(db, grantRecord('g1'));
    await tokens.insertGrant(db, grantRecord('g2'));
    expect(await moves(() => tokens.revokeGrant(db, 'g1', 2000))).toBe(true);
    expect(await moves(() => tokens.revokeGrantsOfUsers(db, ['alice'], 3000))).toBe(true);
    expect(await moves(() => tokens.revokeAccessToken(db, 'jti-1', 9000))).toBe(true);
    expect(await moves(() => users.update(db, 'alice', { name: 'Alice' }))).toBe(true);
    expect(await moves(() => users.update(db, 'alice', { deletedAt: 1000 }))).toBe(true);
    expect(await moves(() => users.eraseDeleted(db, { before: 5000, limit: 10, now: 5000 }))).toBe(true);
    expect(await moves(() => s.database.db('grants').where({ grant_id: 'g2' }).delete())).toBe(true);
  });

  it('stands still for what no cache holds: new grants, rotations, grant extension, new users', async () => {
    const { tokens, users } = repositories;
    const g = grantRecord('g1');
    expect(await moves(() => tokens.insertGrant(db, g))).toBe(false);
    expect(await moves(() => tokens.insertRefreshToken(db, refreshTokenRecord('r1', g)))).toBe(false);
    const claimed = await tokens.claimRefreshTokens(
      db,
      [{ tokenHash: 'r1', clientId: g.clientId, successorHash: 'r2' }],
      { now: 2000, successorExpiresAt: 50_000 },
    );
    expect(claimed.generation).toBe(await generation.read(db));
    expect(
      await moves(() =>
        tokens.claimRefreshTokens(db, [{ tokenHash: 'r2', clientId: g.clientId, successorHash: 'r3' }], {
          now: 3000,
          successorExpiresAt: 60_000,
        }),
      ),
    ).toBe(false);
    expect(await moves(() => tokens.extendGrant(db, 'g1', 60_000))).toBe(false);
    expect(await moves(() => users.insert(db, userRecord('bob')))).toBe(false);
  });

  it('moves when a session ends or changes what it proves, not for a new session or its idle touch', async () => {
    const { sessions, users } = repositories;
    await users.insert(db, userRecord('alice'));
    const session = {
      idHash: 'h1',
      publicId: 'public-h1',
      sub: 'alice',
      createdAt: 1000,
      lastSeenAt: 1000,
      expiresAt: 90_000,
      authTime: 1000,
      amr: ['pwd'],
      secondFactorPending: false,
      secondFactorRequired: false,
    };
    expect(await moves(() => sessions.insert(db, session))).toBe(false);
    expect(await moves(() => sessions.update(db, 'h1', { lastSeenAt: 2000 }))).toBe(false);
    expect(await moves(() => sessions.update(db, 'h1', { secondFactorPending: true }))).toBe(true);
    expect(await moves(() => sessions.renew(db, 'h1', 'h2', { secondFactorPending: false, amr: ['pwd', 'otp'] }))).toBe(
      true,
    );
    expect(await moves(() => sessions.delete(db, 'h2'))).toBe(true);
    await sessions.insert(db, { ...session, idHash: 'h3' });
    expect(await moves(() => sessions.deleteBySub(db, 'alice'))).toBe(true);
  });

  it('does not move for a change that rolls back', async () => {
    await repositories.tokens.insertGrant(db, grantRecord('g1'));
    const rollback = new Error('rollback');
    expect(
      await moves(() =>
        s.storage
          .transaction(async (tx) => {
            await repositories.tokens.revokeGrant(tx, 'g1', 2000);
            throw rollback;
          })
          .catch((error: unknown) => expect(error).toBe(rollback)),
      ),
    ).toBe(false);
  });
}
