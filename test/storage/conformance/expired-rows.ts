import { beforeAll, expect, it } from 'vitest';
import type { ExpiredRowsRepository, Repositories, Tx } from '../../../src/storage/repositories.js';
import type { Subject } from './subject.js';

export function describeExpiredRows(s: Subject): void {
  let expiredRows: ExpiredRowsRepository;
  let repositories: Repositories;
  let db: Tx;
  beforeAll(() => {
    ({ db, repositories } = s);
    ({ expiredRows } = repositories);
  });

  it('deletes rows whose column is strictly before `before`, at most `limit` at a time', async () => {
    const { sessions } = repositories;
    for (const [idHash, expiresAt] of [
      ['e1', 100],
      ['e2', 200],
      ['e3', 300],
      ['at-before', 500],
      ['live', 900],
    ] as const) {
      await sessions.insert(db, {
        idHash,
        sub: 'alice',
        createdAt: 1,
        lastSeenAt: 1,
        expiresAt,
        authTime: 1,
        amr: ['pwd'],
        secondFactorPending: false,
      });
    }
    const batch = { table: 'sessions', column: 'expires_at', before: 500, limit: 2 };
    expect(await expiredRows.deleteBatch(db, batch)).toBe(2);
    expect(await expiredRows.deleteBatch(db, batch)).toBe(1);
    expect(await expiredRows.deleteBatch(db, batch)).toBe(0);
    const left = await Promise.all(['e1', 'e2', 'e3', 'at-before', 'live'].map((id) => sessions.findByIdHash(db, id)));
    expect(left.map((row) => row?.idHash ?? null)).toEqual([null, null, null, 'at-before', 'live']);
  });

  it('works on any table, whatever its key (a text key, a composite key)', async () => {
    const { loginRateLimits, terms } = repositories;
    for (const [key, at] of [
      ['a', 100],
      ['b', 200],
      ['c', 900],
    ] as const)
      await loginRateLimits.countAttempt(db, key, at, 0);
    expect(
      await expiredRows.deleteBatch(db, {
        table: 'login_rate_limits',
        column: 'window_started_at',
        before: 500,
        limit: 10,
      }),
    ).toBe(2);
    expect((await loginRateLimits.find(db, ['a', 'b', 'c'])).map((c) => c.key)).toEqual(['c']);

    const content = { en: { title: 'Terms', type: 'text' as const, content: 'x' } };
    const term = { id: 'tos', required: true, consentMode: 'explicit' as const, content, createdAt: 100 };
    await terms.save(db, { ...term, version: '1', updatedAt: 100 });
    await terms.save(db, { ...term, version: '2', updatedAt: 900 });
    expect(
      await expiredRows.deleteBatch(db, { table: 'term_versions', column: 'created_at', before: 500, limit: 10 }),
    ).toBe(1);
    expect((await terms.listVersions(db, 'tos')).map((v) => v.version)).toEqual(['2']);
  });
}
