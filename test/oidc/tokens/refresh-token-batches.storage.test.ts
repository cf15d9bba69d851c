import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRefreshTokenBatches } from '../../../src/oidc/tokens/refresh-token-batches.js';
import { hashOpaqueToken } from '../../../src/oidc/tokens/opaque-token.js';
import type { GrantRecord } from '../../../src/model/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases.js';
import { grantRecord, refreshTokenRecord } from '../../storage/conformance/records.js';

const now = 5000;
const clock = { now: () => now };

/** The refresh tokens' group commit on a real database: one answer per call, a failed group retried call by call. */
describe.each(databaseKinds)('refresh-token batches on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    for (const table of ['refresh_tokens', 'grants']) await database.db(table).delete();
  });

  const tokens = () => database.storage.repositories.tokens;
  async function seed(...pairs: [GrantRecord, string][]) {
    for (const [grant, token] of pairs) {
      await tokens().insertGrant(database.storage.db, grant);
      await tokens().insertRefreshToken(
        database.storage.db,
        refreshTokenRecord(hashOpaqueToken(token), grant, { expiresAt: 90_000 }),
      );
    }
  }
  const batches = (newToken?: () => string) =>
    createRefreshTokenBatches({
      db: database.storage.db,
      tokenStore: tokens(),
      clock,
      refreshTokenTtlSeconds: 60,
      concurrency: 1,
      newToken,
    });

  it('claims the refreshes of one turn together, each once, clients mixed, and stores every successor', async () => {
    await seed(
      [grantRecord('g1'), 'one'],
      [grantRecord('g2'), 'two'],
      [grantRecord('g3', { clientId: 'other' }), 'three'],
    );
    const b = batches();
    const [one, again, two, three, wrongClient] = await Promise.all([
      b.claim(hashOpaqueToken('one'), 'app'),
      b.claim(hashOpaqueToken('one'), 'app'),
      b.claim(hashOpaqueToken('two'), 'app'),
      b.claim(hashOpaqueToken('three'), 'other'),
      b.claim(hashOpaqueToken('two'), 'other'),
    ]);
    expect(again).toBeNull();
    expect(wrongClient).toBeNull();
    for (const [claimed, grantId] of [
      [one, 'g1'],
      [two, 'g2'],
      [three, 'g3'],
    ] as const) {
      expect(claimed?.grant.grantId).toBe(grantId);
      expect(claimed?.token.rotatedAt).toBe(now);
      const successor = await b.find(hashOpaqueToken(claimed!.successor));
      expect(successor?.token).toMatchObject({ grantId, rotatedAt: null, createdAt: now, expiresAt: now + 60_000 });
    }
    expect(await b.claim(hashOpaqueToken('one'), 'app')).toBeNull();
  });

  it('retries a failed group call by call: only the call at fault fails, the others are claimed and stored', async () => {
    await seed([grantRecord('g1'), 'one'], [grantRecord('g2'), 'two']);
    // Both successors get the same value: the group's statement breaks the primary key, then the second alone does.
    const b = batches(() => 'same successor');
    const [first, second] = await Promise.allSettled([
      b.claim(hashOpaqueToken('one'), 'app'),
      b.claim(hashOpaqueToken('two'), 'app'),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { successor: 'same successor' } });
    expect(second.status).toBe('rejected');
    expect((await b.find(hashOpaqueToken('two')))?.token.rotatedAt).toBeNull();
    expect((await b.find(hashOpaqueToken('one')))?.token.rotatedAt).toBe(now);
  });

  it('finds the tokens of one turn with their grants', async () => {
    await seed([grantRecord('g1'), 'one']);
    const b = batches();
    const [found, missing] = await Promise.all([b.find(hashOpaqueToken('one')), b.find(hashOpaqueToken('nope'))]);
    expect(found?.grant?.grantId).toBe('g1');
    expect(missing).toBeNull();
  });
});
