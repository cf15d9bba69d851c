import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { LoginRateLimitRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';

export function describeLoginRateLimits(s: Subject): void {
  let limits: LoginRateLimitRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { loginRateLimits: limits },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['login_rate_limits']));

  it('starts a window at the first attempt and counts within it', async () => {
    expect(await limits.countAttempt(db, 'account:a', 1000, 0)).toEqual({
      key: 'account:a',
      failures: 1,
      windowStartedAt: 1000,
    });
    expect(await limits.countAttempt(db, 'account:a', 1500, 500)).toEqual({
      key: 'account:a',
      failures: 2,
      windowStartedAt: 1000,
    });
    // A window that started exactly at windowStartsAfter is still open.
    expect(await limits.countAttempt(db, 'account:a', 1600, 1000)).toEqual({
      key: 'account:a',
      failures: 3,
      windowStartedAt: 1000,
    });
    await limits.countAttempt(db, 'address:1.2.3.4', 1700, 0);
    const found = await limits.find(db, ['account:a', 'address:1.2.3.4', 'account:nobody']);
    expect(found.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'account:a', failures: 3, windowStartedAt: 1000 },
      { key: 'address:1.2.3.4', failures: 1, windowStartedAt: 1700 },
    ]);
  });

  it('restarts a window that started before windowStartsAfter, at now with 1', async () => {
    await limits.countAttempt(db, 'k', 1000, 0);
    await limits.countAttempt(db, 'k', 1100, 0);
    expect(await limits.countAttempt(db, 'k', 5000, 1001)).toEqual({ key: 'k', failures: 1, windowStartedAt: 5000 });
  });

  it('releases an attempt of the current window, never one counted before the window restarted', async () => {
    await limits.countAttempt(db, 'k', 1000, 0);
    await limits.countAttempt(db, 'k', 1500, 0);
    await limits.release(db, 'k', 1500);
    expect(await limits.find(db, ['k'])).toEqual([{ key: 'k', failures: 1, windowStartedAt: 1000 }]);
    await limits.countAttempt(db, 'k', 9000, 8000);
    await limits.release(db, 'k', 1500);
    expect(await limits.find(db, ['k'])).toEqual([{ key: 'k', failures: 1, windowStartedAt: 9000 }]);
    await limits.release(db, 'unknown', 1500);
    expect(await limits.find(db, ['unknown'])).toEqual([]);
  });

  it('clears one key, and deletes the counters whose window started before a time', async () => {
    for (const [key, at] of [
      ['a', 100],
      ['b', 200],
      ['c', 300],
      ['d', 400],
    ] as const)
      await limits.countAttempt(db, key, at, 0);
    expect(await limits.clear(db, 'd')).toBe(true);
    expect(await limits.clear(db, 'd')).toBe(false);
    expect(await limits.deleteStale(db, 300)).toBe(2);
    expect((await limits.find(db, ['a', 'b', 'c', 'd'])).map((c) => c.key)).toEqual(['c']);
  });

  it('adds up concurrent attempts from separate connections, each seeing its own count', async () => {
    // Two rounds: racing to create the counter, then racing to raise it.
    const rounds = await withStorages(s, racers, async (storages) => {
      const round = () =>
        Promise.all(
          storages.map((storage, i) =>
            storage.repositories.loginRateLimits.countAttempt(storage.db, 'account:raced', 1000 + i, 0),
          ),
        );
      return [await round(), await round()];
    });
    const counts = (round: { failures: number }[]) => round.map((c) => c.failures).sort((x, y) => x - y);
    expect(counts(rounds[0])).toEqual(Array.from({ length: racers }, (_, i) => i + 1));
    expect(counts(rounds[1])).toEqual(Array.from({ length: racers }, (_, i) => racers + i + 1));
    expect((await limits.find(db, ['account:raced']))[0]?.failures).toBe(2 * racers);
  });
}
