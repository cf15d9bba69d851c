import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { LinkTokenRepository, Tx } from '../../../src/storage/repositories.js';
import type { LinkTokenRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { userRecord } from './records.js';

function token(tokenHash: string, overrides: Partial<LinkTokenRecord> = {}): LinkTokenRecord {
  return {
    tokenHash,
    sub: 'alice',
    purpose: 'password_reset',
    email: 'Alice@example.com',
    createdAt: 1_000,
    expiresAt: 10_000,
    usedAt: null,
    ...overrides,
  };
}

export function describeLinkTokens(s: Subject): void {
  let tokens: LinkTokenRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { linkTokens: tokens },
    } = s);
  });
  // A token belongs to a user.
  beforeEach(async () => {
    await cleanTables(s.database.db, ['link_tokens', 'users']);
    await s.repositories.users.insertMany(db, [userRecord('alice'), userRecord('bob')]);
  });

  it('redeems a token once, field for field, and never again', async () => {
    await tokens.insert(db, token('t1'));
    expect(await tokens.find(db, 't1')).toEqual(token('t1'));
    expect(await tokens.redeem(db, 't1', 'password_reset', 5_000)).toEqual(token('t1', { usedAt: 5_000 }));
    expect(await tokens.redeem(db, 't1', 'password_reset', 5_001)).toBeNull();
    expect(await tokens.find(db, 't1')).toEqual(token('t1', { usedAt: 5_000 }));
    expect(await tokens.find(db, 'unknown')).toBeNull();
  });

  it('refuses an unknown token, one of another purpose, and one at or after its expiry', async () => {
    await tokens.insert(db, token('reset'));
    await tokens.insert(db, token('verify', { purpose: 'email_verification' }));
    expect(await tokens.redeem(db, 'nope', 'password_reset', 2_000)).toBeNull();
    expect(await tokens.redeem(db, 'reset', 'email_verification', 2_000)).toBeNull();
    expect(await tokens.redeem(db, 'verify', 'email_verification', 10_000)).toBeNull();
    // Refusals change nothing: the right purpose before expiry still redeems.
    expect(await tokens.redeem(db, 'reset', 'password_reset', 9_999)).toMatchObject({ usedAt: 9_999 });
  });

  it('lets exactly one of concurrent redemptions on separate connections win', async () => {
    await tokens.insert(db, token('race'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.linkTokens.redeem(storage.db, 'race', 'password_reset', 2_000 + i),
        ),
      ),
    );
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ tokenHash: 'race', usedAt: expect.any(Number) });
    expect(await tokens.redeem(db, 'race', 'password_reset', 3_000)).toBeNull();
  });

  it('lets exactly one of concurrent redemptions on one pool win', async () => {
    await tokens.insert(db, token('race-pool'));
    const results = await Promise.all(
      Array.from({ length: racers }, (_, i) => tokens.redeem(db, 'race-pool', 'password_reset', 2_000 + i)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('voids the unused tokens of one user and purpose only', async () => {
    await tokens.insert(db, token('a1'));
    await tokens.insert(db, token('a2'));
    await tokens.insert(db, token('a-used', { usedAt: 1_500 }));
    await tokens.insert(db, token('a-verify', { purpose: 'email_verification' }));
    await tokens.insert(db, token('b1', { sub: 'bob' }));
    expect(await tokens.voidUnused(db, 'alice', 'password_reset', 2_000)).toBe(2);
    expect(await tokens.redeem(db, 'a1', 'password_reset', 2_001)).toBeNull();
    expect(await tokens.redeem(db, 'a2', 'password_reset', 2_001)).toBeNull();
    expect(await tokens.redeem(db, 'a-verify', 'email_verification', 2_001)).not.toBeNull();
    expect(await tokens.redeem(db, 'b1', 'password_reset', 2_001)).not.toBeNull();
  });

  it('voids every unused token of one user, whatever the purpose, and leaves other users alone', async () => {
    await tokens.insert(db, token('all-reset'));
    await tokens.insert(db, token('all-verify', { purpose: 'email_verification' }));
    await tokens.insert(db, token('all-used', { usedAt: 1_500 }));
    await tokens.insert(db, token('all-bob', { sub: 'bob', purpose: 'email_verification' }));
    expect(await tokens.voidAllUnused(db, 'alice', 2_000)).toBe(2);
    expect(await tokens.redeem(db, 'all-reset', 'password_reset', 2_001)).toBeNull();
    expect(await tokens.redeem(db, 'all-verify', 'email_verification', 2_001)).toBeNull();
    expect(await tokens.redeem(db, 'all-bob', 'email_verification', 2_001)).not.toBeNull();
  });

  it('deletes tokens that expired strictly before now, up to the limit', async () => {
    for (const hash of ['x1', 'x2', 'x3'])
      await tokens.insert(db, token(hash, { expiresAt: 300, usedAt: hash === 'x1' ? 200 : null }));
    await tokens.insert(db, token('at-now', { expiresAt: 400 }));
    expect(await tokens.deleteExpired(db, 400, 2)).toBe(2);
    expect(await tokens.deleteExpired(db, 400, 2)).toBe(1);
    expect(await tokens.deleteExpired(db, 400, 2)).toBe(0);
    expect(await tokens.redeem(db, 'at-now', 'password_reset', 399)).not.toBeNull();
  });

  it('goes with its user', async () => {
    await tokens.insert(db, token('gone', { sub: 'bob' }));
    await s.database.db('users').where({ sub: 'bob' }).delete();
    expect(await tokens.redeem(db, 'gone', 'password_reset', 2_000)).toBeNull();
  });
}
