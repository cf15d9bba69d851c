import { beforeAll, expect, it } from 'vitest';
import type { FirstAdminTokenRepository, Tx } from '../../../src/storage/repositories.js';
import { racers, withStorages, type Subject } from './subject.js';

export function describeFirstAdminTokens(s: Subject): void {
  let tokens: FirstAdminTokenRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { firstAdminTokens: tokens },
    } = s);
  });

  it('inserts, finds, removes the expired ones, and takes all at once', async () => {
    await tokens.insert(db, { tokenHash: 'old', createdAt: 1, expiresAt: 10 });
    await tokens.insert(db, { tokenHash: 'new', createdAt: 5, expiresAt: 100 });
    expect(await tokens.find(db, 'new')).toEqual({ tokenHash: 'new', createdAt: 5, expiresAt: 100 });
    expect(await tokens.find(db, 'nope')).toBeNull();
    expect(await tokens.deleteExpired(db, 50)).toBe(1);
    expect(await tokens.find(db, 'old')).toBeNull();
    await tokens.insert(db, { tokenHash: 'other', createdAt: 6, expiresAt: 200 });
    const taken = await tokens.takeAll(db);
    expect(taken.map((t) => t.tokenHash).sort()).toEqual(['new', 'other']);
    expect(await tokens.takeAll(db)).toEqual([]);
  });

  it('takeAll racing in transactions on separate connections: one caller gets the tokens, no other does', async () => {
    await tokens.insert(db, { tokenHash: 'raced', createdAt: 1, expiresAt: 100 });
    const results = await withStorages(s, racers, (storages) =>
      Promise.allSettled(
        storages.map((storage) => storage.transaction((tx) => storage.repositories.firstAdminTokens.takeAll(tx))),
      ),
    );
    // PostgreSQL: the others wait for the row locks and find nothing. SQLite: a connection that cannot
    // get the write lock in time fails (SQLITE_BUSY), which takes nothing either.
    const winners = results.flatMap((r) => (r.status === 'fulfilled' && r.value.length > 0 ? [r.value] : []));
    expect(winners).toEqual([[{ tokenHash: 'raced', createdAt: 1, expiresAt: 100 }]]);
    if (s.kind === 'postgres') expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await tokens.takeAll(db)).toEqual([]);
  });
}
