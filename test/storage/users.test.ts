import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexUserRepository as users } from '../../src/storage/knex/users.js';
import type { UserRecord } from '../../src/model/index.js';

function user(sub: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    sub,
    managedBy: 'database',
    email: `${sub}@example.com`,
    role: 'user',
    emailVerified: false,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    deletedAt: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

const page = { includeDeleted: false, page: 1, pageSize: 20 };

describe.each(databaseKinds)('user repository on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    await t.db('users').delete();
  });

  it('round-trips every field, booleans as booleans', async () => {
    const record = user('alice', {
      email: 'Alice@Example.com',
      role: 'admin',
      emailVerified: true,
      emailVerificationRequired: true,
      passwordHash: '$argon2id$v=19$x',
      secondFactorRequired: true,
      deletedAt: 5000,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_001,
      managedBy: 'config',
    });
    await users.insert(t.db, record);
    expect(await users.findBySub(t.db, 'alice')).toEqual(record);
    expect(await users.findBySub(t.db, 'nobody')).toBeNull();
  });

  it('finds live users by e-mail case-insensitively, never soft-deleted ones', async () => {
    await users.insert(t.db, user('gone', { email: 'Bob@Example.com', deletedAt: 10 }));
    expect(await users.findLiveByEmail(t.db, 'bob@example.com')).toBeNull();
    await users.insert(t.db, user('bob', { email: 'Bob@Example.com' }));
    expect((await users.findLiveByEmail(t.db, 'BOB@EXAMPLE.COM'))?.sub).toBe('bob');
    expect((await users.findLiveByEmails(t.db, ['bob@EXAMPLE.com', 'none@x.io'])).map((u) => u.sub)).toEqual(['bob']);
  });

  it('inserts many in batches and finds them by subs, any manager', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => user(`u${String(i).padStart(4, '0')}`, { managedBy: i % 2 ? 'config' : 'database' }));
    await users.insertMany(t.db, many);
    expect((await users.listByManager(t.db, 'config')).length).toBe(1250);
    const found = await users.findBySubs(t.db, [...many.map((u) => u.sub), 'missing']);
    expect(found.length).toBe(2500);
  });

  it('updates one user and many users', async () => {
    await users.insertMany(t.db, [user('a'), user('b'), user('c')]);
    await users.update(t.db, 'a', { email: 'NEW@x.io', role: 'admin', updatedAt: 2000 });
    const a = await users.findBySub(t.db, 'a');
    expect(a).toMatchObject({ email: 'NEW@x.io', role: 'admin', updatedAt: 2000, createdAt: 1000 });
    expect((await users.findLiveByEmail(t.db, 'new@X.IO'))?.sub).toBe('a');
    await users.updateMany(t.db, ['b', 'c'], { deletedAt: 3000 });
    expect((await users.findBySub(t.db, 'b'))?.deletedAt).toBe(3000);
    expect((await users.findBySub(t.db, 'c'))?.deletedAt).toBe(3000);
    expect((await users.findBySub(t.db, 'a'))?.deletedAt).toBeNull();
  });

  describe('list', () => {
    beforeEach(async () => {
      await users.insertMany(t.db, [
        user('s-1', { email: 'zed@example.com', role: 'admin' }),
        user('s-2', { email: 'Amy@Example.com', managedBy: 'config' }),
        user('s-3', { email: 'bob_100%@example.com' }),
        user('s-4', { email: 'bobx1000@example.com' }),
        user('S-Deleted', { email: 'carl@example.com', deletedAt: 99 }),
      ]);
    });

    it('orders by e-mail, hides soft-deleted users unless asked, and counts the total', async () => {
      const live = await users.list(t.db, page);
      expect(live.users.map((u) => u.sub)).toEqual(['s-2', 's-3', 's-4', 's-1']);
      expect(live.total).toBe(4);
      const all = await users.list(t.db, { ...page, includeDeleted: true });
      expect(all.total).toBe(5);
      expect(all.users.map((u) => u.sub)).toContain('S-Deleted');
    });

    it('filters by manager and role', async () => {
      expect((await users.list(t.db, { ...page, managedBy: 'config' })).users.map((u) => u.sub)).toEqual(['s-2']);
      expect((await users.list(t.db, { ...page, role: 'admin' })).users.map((u) => u.sub)).toEqual(['s-1']);
      expect((await users.list(t.db, { ...page, role: 'admin', managedBy: 'config' })).total).toBe(0);
    });

    it('matches a case-insensitive substring of e-mail or sub', async () => {
      expect((await users.list(t.db, { ...page, query: 'AMY@' })).users.map((u) => u.sub)).toEqual(['s-2']);
      expect((await users.list(t.db, { ...page, query: 's-deL', includeDeleted: true })).users.map((u) => u.sub)).toEqual(['S-Deleted']);
      expect((await users.list(t.db, { ...page, query: 's-deL' })).total).toBe(0);
    });

    it('treats LIKE wildcards in the query literally', async () => {
      expect((await users.list(t.db, { ...page, query: '_100%' })).users.map((u) => u.sub)).toEqual(['s-3']);
      expect((await users.list(t.db, { ...page, query: '%' })).users.map((u) => u.sub)).toEqual(['s-3']);
      expect((await users.list(t.db, { ...page, query: 'b_b' })).total).toBe(0);
      expect((await users.list(t.db, { ...page, query: '\\' })).total).toBe(0);
    });

    it('pages', async () => {
      const first = await users.list(t.db, { ...page, pageSize: 3 });
      const second = await users.list(t.db, { ...page, pageSize: 3, page: 2 });
      expect(first.users.map((u) => u.sub)).toEqual(['s-2', 's-3', 's-4']);
      expect(second.users.map((u) => u.sub)).toEqual(['s-1']);
      expect(first.total).toBe(4);
      expect(second.total).toBe(4);
      const beyond = await users.list(t.db, { ...page, pageSize: 3, page: 9 });
      expect(beyond).toEqual({ users: [], total: 4 });
      const exactlyFullLast = await users.list(t.db, { ...page, pageSize: 2, page: 2 });
      expect(exactlyFullLast.users.map((u) => u.sub)).toEqual(['s-4', 's-1']);
      expect(exactlyFullLast.total).toBe(4);
      expect((await users.list(t.db, { ...page, query: 'AMY@' })).total).toBe(1);
    });
  });
});
