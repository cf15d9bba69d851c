import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { SessionRepository, Tx } from '../../../src/storage/repositories.js';
import type { SessionRecord } from '../../../src/model/index.js';
import { cleanTables, type Subject } from './subject.js';

function session(idHash: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    idHash,
    publicId: `p-${idHash}`,
    sub: 'alice',
    createdAt: 1000,
    lastSeenAt: 1500,
    expiresAt: 10_000,
    authTime: 900,
    amr: ['pwd', 'otp'],
    secondFactorPending: true,
    secondFactorRequired: false,
    ...overrides,
  };
}

export function describeSessions(s: Subject): void {
  let sessions: SessionRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { sessions },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['sessions']));

  it('countLive counts the signed-in sessions that have not expired', async () => {
    await sessions.insert(db, session('live', { secondFactorPending: false, expiresAt: 5000 }));
    await sessions.insert(db, session('pending', { secondFactorPending: true, expiresAt: 5000 }));
    await sessions.insert(db, session('expired', { secondFactorPending: false, expiresAt: 1000 }));
    expect(await sessions.countLive(db, 2000)).toBe(1);
    expect(await sessions.countLive(db, 6000)).toBe(0);
  });

  it('round-trips every field, amr in order and booleans as booleans', async () => {
    await sessions.insert(db, session('s1'));
    expect(await sessions.findByIdHash(db, 's1')).toEqual(session('s1'));
    expect(await sessions.findByIdHash(db, 'nope')).toBeNull();
  });

  it('keeps the public id when a session is renewed, and refuses a second session with the same public id', async () => {
    await sessions.insert(db, session('old'));
    expect(await sessions.renew(db, 'old', 'new', { lastSeenAt: 2000 })).toBe(true);
    expect((await sessions.findByIdHash(db, 'new'))?.publicId).toBe('p-old');
    await expect(sessions.insert(db, session('other', { publicId: 'p-old' }))).rejects.toThrow();
  });

  it('finds the sessions of several users at once', async () => {
    for (const id of ['a1', 'a2']) await sessions.insert(db, session(id));
    await sessions.insert(db, session('b1', { sub: 'bob' }));
    await sessions.insert(db, session('c1', { sub: 'carol' }));
    const found = await sessions.findBySubs(db, ['alice', 'bob', 'nobody']);
    expect(found.map((row) => row.idHash).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(found.find((row) => row.idHash === 'b1')).toEqual(session('b1', { sub: 'bob' }));
    expect(await sessions.findBySubs(db, [])).toEqual([]);
  });

  it('round-trips the step-up flag (second_factor_required)', async () => {
    await sessions.insert(db, session('s1', { secondFactorRequired: true }));
    expect(await sessions.findByIdHash(db, 's1')).toEqual(session('s1', { secondFactorRequired: true }));
  });

  it('renews a session under a new id with its changes, once: the old id is gone', async () => {
    await sessions.insert(db, session('old', { secondFactorPending: false }));
    const changes = { secondFactorPending: true, secondFactorRequired: true, lastSeenAt: 2000, expiresAt: 2600 };
    expect(await sessions.renew(db, 'old', 'new', changes)).toBe(true);
    expect(await sessions.findByIdHash(db, 'old')).toBeNull();
    expect(await sessions.findByIdHash(db, 'new')).toEqual(session('new', { ...changes, publicId: 'p-old' }));
    expect(await sessions.renew(db, 'old', 'other', changes)).toBe(false);
    expect(await sessions.findByIdHash(db, 'other')).toBeNull();
  });

  it('updates only the given fields of one session', async () => {
    await sessions.insert(db, session('s1'));
    await sessions.insert(db, session('s2'));
    await sessions.update(db, 's1', { lastSeenAt: 2000, amr: ['pwd'], secondFactorPending: false });
    expect(await sessions.findByIdHash(db, 's1')).toEqual(
      session('s1', { lastSeenAt: 2000, amr: ['pwd'], secondFactorPending: false }),
    );
    expect(await sessions.findByIdHash(db, 's2')).toEqual(session('s2'));
  });

  it('deletes one session, or every session of a user (counting them)', async () => {
    await sessions.insert(db, session('a1'));
    await sessions.insert(db, session('a2'));
    await sessions.insert(db, session('a3'));
    await sessions.insert(db, session('b1', { sub: 'bob' }));
    await sessions.delete(db, 'a1');
    expect(await sessions.findByIdHash(db, 'a1')).toBeNull();
    expect(await sessions.deleteBySub(db, 'alice')).toBe(2);
    expect(await sessions.findByIdHash(db, 'a2')).toBeNull();
    expect(await sessions.deleteBySub(db, 'alice')).toBe(0);
    expect(await sessions.findByIdHash(db, 'b1')).not.toBeNull();
  });

  it("deletes every other session of a user but the one kept, counting them; other users' stay", async () => {
    for (const id of ['a1', 'a2', 'a3']) await sessions.insert(db, session(id));
    await sessions.insert(db, session('b1', { sub: 'bob' }));
    expect(await sessions.deleteOthersOfUser(db, 'alice', 'a2')).toBe(2);
    expect(await sessions.findByIdHash(db, 'a2')).not.toBeNull();
    expect(await sessions.findByIdHash(db, 'a1')).toBeNull();
    expect(await sessions.findByIdHash(db, 'b1')).not.toBeNull();
    expect(await sessions.deleteOthersOfUser(db, 'alice', 'a2')).toBe(0);
  });

  it('deletes sessions that expired before now, up to the limit', async () => {
    for (const [id, expiresAt] of [
      ['e1', 100],
      ['e2', 200],
      ['e3', 300],
      ['at-now', 500],
      ['live', 900],
    ] as const) {
      await sessions.insert(db, session(id, { expiresAt }));
    }
    expect(await sessions.deleteExpired(db, 500, 2)).toBe(2);
    expect(await sessions.deleteExpired(db, 500, 2)).toBe(1);
    expect(await sessions.deleteExpired(db, 500, 2)).toBe(0);
    expect(await sessions.findByIdHash(db, 'e3')).toBeNull();
    expect(await sessions.findByIdHash(db, 'at-now')).not.toBeNull();
    expect(await sessions.findByIdHash(db, 'live')).not.toBeNull();
  });
}
