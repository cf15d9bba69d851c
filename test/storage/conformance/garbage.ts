import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { GarbagePolicy, Repositories, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';

/** A policy that keeps everything but what has expired (every retention far longer than the tests' clock). */
export const onlyExpired: GarbagePolicy = {
  batchSize: 10,
  erasureGraceMs: 1e12,
  sessionIdleMs: 1e12,
  rateLimitWindowMs: 1e12,
  jobRetentionMs: 1e12,
  eventRetentionMs: 1e12,
};

export function describeGarbage(s: Subject): void {
  let repositories: Repositories;
  let db: Tx;
  beforeAll(() => {
    ({ db, repositories } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['sessions', 'login_rate_limits']));

  it('deletes rows expired strictly before now, in batches until none is left, and counts them per table', async () => {
    const { sessions } = repositories;
    for (const [idHash, expiresAt] of [
      ['e1', 100],
      ['e2', 200],
      ['e3', 300],
      ['at-now', 500],
      ['live', 900],
    ] as const) {
      await sessions.insert(db, {
        idHash,
        publicId: `p-${idHash}`,
        sub: 'alice',
        createdAt: 1,
        lastSeenAt: 400,
        expiresAt,
        authTime: 1,
        amr: ['pwd'],
        secondFactorPending: false,
        secondFactorRequired: false,
      });
    }
    const deleted = await s.storage.collectGarbage(500, { ...onlyExpired, batchSize: 2 });
    expect(deleted).toMatchObject({ sessions: 3, sessions_idle: 0, grants: 0, events: 0 });
    const left = await Promise.all(['e1', 'e2', 'e3', 'at-now', 'live'].map((id) => sessions.findByIdHash(db, id)));
    expect(left.map((row) => row?.idHash ?? null)).toEqual([null, null, null, 'at-now', 'live']);
  });

  it('applies the policy: idle sessions, ended rate-limit windows', async () => {
    const { sessions, loginRateLimits } = repositories;
    const session = {
      sub: 'alice',
      createdAt: 1,
      expiresAt: 10_000,
      authTime: 1,
      amr: [],
      secondFactorPending: false,
      secondFactorRequired: false,
    };
    await sessions.insert(db, { ...session, idHash: 'idle', publicId: 'p-idle', lastSeenAt: 100 });
    await sessions.insert(db, { ...session, idHash: 'busy', publicId: 'p-busy', lastSeenAt: 800 });
    for (const [key, at] of [
      ['a', 100],
      ['b', 200],
      ['c', 900],
    ] as const)
      await loginRateLimits.countAttempt(db, key, at, 0);
    const deleted = await s.storage.collectGarbage(1000, {
      ...onlyExpired,
      sessionIdleMs: 500,
      rateLimitWindowMs: 500,
    });
    expect(deleted).toMatchObject({ sessions: 0, sessions_idle: 1, login_rate_limits: 2 });
    expect(await sessions.findByIdHash(db, 'idle')).toBeNull();
    expect(await sessions.findByIdHash(db, 'busy')).not.toBeNull();
    expect((await loginRateLimits.find(db, ['a', 'b', 'c'])).map((c) => c.key)).toEqual(['c']);
  });
}
