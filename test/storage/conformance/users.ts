import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Tx, UserRepository } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { clientRecord, userRecord as user } from './records.js';

const page = { includeDeleted: false, page: 1, pageSize: 20 };

export function describeUsers(s: Subject): void {
  let users: UserRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { users },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['users']));

  it('round-trips every field, booleans as booleans', async () => {
    const record = user('alice', {
      email: 'Alice@Example.com',
      role: 'admin',
      emailVerified: true,
      emailVerificationRequired: true,
      passwordHash: '$argon2id$v=19$x',
      secondFactorRequired: true,
      name: 'Ada Lovelace',
      givenName: 'Ada',
      familyName: 'Lovelace',
      locale: 'pt-BR',
      deletedAt: 5000,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_001,
      managedBy: 'config',
    });
    await users.insert(db, record);
    expect(await users.findBySub(db, 'alice')).toEqual(record);
    expect(await users.findBySub(db, 'nobody')).toBeNull();
  });

  it('finds live users by e-mail case-insensitively, never soft-deleted ones', async () => {
    await users.insert(db, user('gone', { email: 'Bob@Example.com', deletedAt: 10 }));
    expect(await users.findLiveByEmail(db, 'bob@example.com')).toBeNull();
    await users.insert(db, user('bob', { email: 'Bob@Example.com' }));
    expect((await users.findLiveByEmail(db, 'BOB@EXAMPLE.COM'))?.sub).toBe('bob');
    expect((await users.findLiveByEmails(db, ['bob@EXAMPLE.com', 'none@x.io'])).map((u) => u.sub)).toEqual(['bob']);
  });

  // Before the 2500-user test: on PostgreSQL, thousands of rows just deleted by the
  // cleanup make the planner pick the trigram index for `IN (…)` (seconds, not ms).
  it('finds many by e-mail and updates many, across batches', async () => {
    const many = Array.from({ length: 450 }, (_, i) => user(`m${i}`, { email: `M${i}@Example.com` }));
    await users.insertMany(db, many);
    expect(
      (
        await users.findLiveByEmails(
          db,
          many.map((u) => u.email.toUpperCase()),
        )
      ).length,
    ).toBe(450);
    await users.updateMany(
      db,
      many.map((u) => u.sub),
      { deletedAt: 4000 },
    );
    expect(
      await users.findLiveByEmails(
        db,
        many.map((u) => u.email),
      ),
    ).toEqual([]);
    expect(
      (
        await users.findBySubs(
          db,
          many.map((u) => u.sub),
        )
      ).every((u) => u.deletedAt === 4000),
    ).toBe(true);
  });

  it('inserts many in batches and finds them by subs, any manager', async () => {
    const many = Array.from({ length: 2500 }, (_, i) =>
      user(`u${String(i).padStart(4, '0')}`, { managedBy: i % 2 ? 'config' : 'database' }),
    );
    await users.insertMany(db, many);
    expect((await users.listByManager(db, 'config')).length).toBe(1250);
    const found = await users.findBySubs(db, [...many.map((u) => u.sub), 'missing']);
    expect(found.length).toBe(2500);
  });

  it('updates one user and many users', async () => {
    await users.insertMany(db, [user('a'), user('b'), user('c')]);
    await users.update(db, 'a', { email: 'NEW@x.io', role: 'admin', updatedAt: 2000 });
    const a = await users.findBySub(db, 'a');
    expect(a).toMatchObject({ email: 'NEW@x.io', role: 'admin', updatedAt: 2000, createdAt: 1000 });
    expect((await users.findLiveByEmail(db, 'new@X.IO'))?.sub).toBe('a');
    await users.updateMany(db, ['b', 'c'], { deletedAt: 3000 });
    expect((await users.findBySub(db, 'b'))?.deletedAt).toBe(3000);
    expect((await users.findBySub(db, 'c'))?.deletedAt).toBe(3000);
    expect((await users.findBySub(db, 'a'))?.deletedAt).toBeNull();
  });

  it("replaces a database-managed user's password hash only while it is the one read", async () => {
    await users.insertMany(db, [
      user('a', { passwordHash: '$pbkdf2-sha256$old' }),
      user('f', { managedBy: 'config', passwordHash: '$pbkdf2-sha256$old' }),
    ]);
    expect(await users.replacePasswordHash(db, 'a', '$pbkdf2-sha256$other', '$argon2id$new')).toBe(false);
    expect(await users.replacePasswordHash(db, 'f', '$pbkdf2-sha256$old', '$argon2id$new')).toBe(false);
    expect(await users.replacePasswordHash(db, 'a', '$pbkdf2-sha256$old', '$argon2id$new')).toBe(true);
    expect(await users.findBySub(db, 'a')).toMatchObject({ passwordHash: '$argon2id$new', updatedAt: 1000 });
    expect((await users.findBySub(db, 'f'))?.passwordHash).toBe('$pbkdf2-sha256$old');
    expect(await users.replacePasswordHash(db, 'a', '$pbkdf2-sha256$old', '$argon2id$newer')).toBe(false);
  });

  it('sets and clears the profile fields', async () => {
    await users.insert(db, user('p'));
    await users.update(db, 'p', {
      name: 'Émilie du Châtelet 😀',
      givenName: 'Émilie',
      familyName: 'du Châtelet',
      locale: 'de',
    });
    expect(await users.findBySub(db, 'p')).toMatchObject({
      name: 'Émilie du Châtelet 😀',
      givenName: 'Émilie',
      familyName: 'du Châtelet',
      locale: 'de',
    });
    await users.update(db, 'p', { name: null, locale: null });
    expect(await users.findBySub(db, 'p')).toMatchObject({
      name: null,
      givenName: 'Émilie',
      familyName: 'du Châtelet',
      locale: null,
    });
  });

  describe('erasure', () => {
    beforeEach(() => cleanTables(s.database.db, ['users', 'erased_users', 'consents', 'clients']));

    it('erases database-managed users soft-deleted before the cutoff, oldest first, in batches, keeping their subs; never config-managed or live ones', async () => {
      await users.insertMany(db, [
        user('d1', { deletedAt: 100 }),
        user('d2', { deletedAt: 200 }),
        user('d3', { deletedAt: 300 }),
        user('late', { deletedAt: 1000 }),
        user('cfg', { managedBy: 'config', deletedAt: 100 }),
        user('live'),
      ]);
      expect(await users.eraseDeleted(db, { before: 500, limit: 2, now: 9000 })).toBe(2);
      expect((await users.findBySubs(db, ['d1', 'd2', 'd3'])).map((u) => u.sub)).toEqual(['d3']);
      expect(await users.eraseDeleted(db, { before: 500, limit: 2, now: 9001 })).toBe(1);
      expect(await users.eraseDeleted(db, { before: 500, limit: 2, now: 9002 })).toBe(0);
      expect((await users.findBySubs(db, ['late', 'cfg', 'live'])).map((u) => u.sub).sort()).toEqual([
        'cfg',
        'late',
        'live',
      ]);
      expect((await users.findErasedSubs(db, ['d1', 'd2', 'd3', 'late', 'cfg', 'nobody'])).sort()).toEqual([
        'd1',
        'd2',
        'd3',
      ]);
      expect(await users.findErasedSubs(db, [])).toEqual([]);
      const tombstones = await s.database.db('erased_users').orderBy('sub');
      expect(tombstones.map((row) => [row.sub, Number(row.erased_at)])).toEqual([
        ['d1', 9000],
        ['d2', 9000],
        ['d3', 9001],
      ]);
    });

    it('takes the rows that reference an erased user with it (ON DELETE CASCADE), and frees its e-mail for good', async () => {
      await users.insert(db, user('gone', { email: 'Gone@Example.com', deletedAt: 100 }));
      await s.repositories.clients.insertMany(db, [clientRecord('app')]);
      await s.repositories.consents.grant(db, 'gone', 'app', ['openid'], 50);
      expect(await users.eraseDeleted(db, { before: 500, limit: 10, now: 600 })).toBe(1);
      expect(await s.repositories.consents.find(db, 'gone', 'app')).toBeNull();
      await users.insert(db, user('new', { email: 'gone@example.com' }));
      expect((await users.findLiveByEmail(db, 'GONE@example.com'))?.sub).toBe('new');
    });

    it('finds erased subs across batches', async () => {
      const many = Array.from({ length: 450 }, (_, i) => user(`e${i}`, { deletedAt: 1 }));
      await users.insertMany(db, many);
      expect(await users.eraseDeleted(db, { before: 10, limit: 1000, now: 20 })).toBe(450);
      expect(
        (
          await users.findErasedSubs(
            db,
            many.map((u) => u.sub),
          )
        ).length,
      ).toBe(450);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      await users.insertMany(db, [
        user('s-1', { email: 'zed@example.com', role: 'admin' }),
        user('s-2', { email: 'Amy@Example.com', managedBy: 'config' }),
        user('s-3', { email: 'bob_100%@example.com' }),
        user('s-4', { email: 'bobx1000@example.com' }),
        user('S-Deleted', { email: 'carl@example.com', deletedAt: 99 }),
      ]);
    });

    it('orders by e-mail, hides soft-deleted users unless asked, and counts the total', async () => {
      const live = await users.list(db, page);
      expect(live.users.map((u) => u.sub)).toEqual(['s-2', 's-3', 's-4', 's-1']);
      expect(live.total).toBe(4);
      const all = await users.list(db, { ...page, includeDeleted: true });
      expect(all.total).toBe(5);
      expect(all.users.map((u) => u.sub)).toContain('S-Deleted');
    });

    it('filters by manager and role', async () => {
      expect((await users.list(db, { ...page, managedBy: 'config' })).users.map((u) => u.sub)).toEqual(['s-2']);
      expect((await users.list(db, { ...page, role: 'admin' })).users.map((u) => u.sub)).toEqual(['s-1']);
      expect((await users.list(db, { ...page, role: 'admin', managedBy: 'config' })).total).toBe(0);
    });

    it('matches a case-insensitive substring of e-mail or sub', async () => {
      expect((await users.list(db, { ...page, query: 'AMY@' })).users.map((u) => u.sub)).toEqual(['s-2']);
      expect((await users.list(db, { ...page, query: 's-deL', includeDeleted: true })).users.map((u) => u.sub)).toEqual(
        ['S-Deleted'],
      );
      expect((await users.list(db, { ...page, query: 's-deL' })).total).toBe(0);
    });

    it('treats LIKE wildcards in the query literally', async () => {
      expect((await users.list(db, { ...page, query: '_100%' })).users.map((u) => u.sub)).toEqual(['s-3']);
      expect((await users.list(db, { ...page, query: '%' })).users.map((u) => u.sub)).toEqual(['s-3']);
      expect((await users.list(db, { ...page, query: 'b_b' })).total).toBe(0);
      expect((await users.list(db, { ...page, query: '\\' })).total).toBe(0);
    });

    it('pages', async () => {
      const first = await users.list(db, { ...page, pageSize: 3 });
      const second = await users.list(db, { ...page, pageSize: 3, page: 2 });
      expect(first.users.map((u) => u.sub)).toEqual(['s-2', 's-3', 's-4']);
      expect(second.users.map((u) => u.sub)).toEqual(['s-1']);
      expect(first.total).toBe(4);
      expect(second.total).toBe(4);
      const beyond = await users.list(db, { ...page, pageSize: 3, page: 9 });
      expect(beyond).toEqual({ users: [], total: 4 });
      const exactlyFullLast = await users.list(db, { ...page, pageSize: 2, page: 2 });
      expect(exactlyFullLast.users.map((u) => u.sub)).toEqual(['s-4', 's-1']);
      expect(exactlyFullLast.total).toBe(4);
      expect((await users.list(db, { ...page, query: 'AMY@' })).total).toBe(1);
    });
  });
}
