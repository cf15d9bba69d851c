import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { knexUserRepository as users } from '../../src/storage/knex/users.js';
import type { UserRecord } from '../../src/model/index.js';
import { txOf } from '../../src/storage/knex/on-knex.js';

function bulkUser(i: number): UserRecord {
  return {
    sub: `user-${i}`,
    managedBy: 'config',
    email: `user-${i}@bulk.example.com`,
    role: 'user',
    emailVerified: false,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 1,
    updatedAt: 1,
  };
}

/**
 * Issue 10 item 10: right after a bulk load the users table has never been
 * analyzed and its GIN trigram indexes hold most rows in their pending
 * list, which the planner costs as nearly free. These tests read plans,
 * not timings: the e-mail lookups must never be offered the trigram index
 * (400 GIN scans re-reading the pending list took ~2.4 s per batch).
 */
describe('user lookup plans on postgres just after a bulk load', () => {
  let t: TestDatabase;
  const emails = Array.from({ length: 400 }, (_, i) => `user-${i * 7}@bulk.example.com`);

  beforeAll(async () => {
    t = await createTestDatabase('postgres');
    await t.storage.transaction((tx) =>
      users.insertMany(
        tx,
        Array.from({ length: 3000 }, (_, i) => bulkUser(i)),
      ),
    );
  });
  afterAll(async () => {
    await t.destroy();
  });

  /** EXPLAIN of the first statement `lookup` sends, after `settings` (SET LOCAL …) in the same transaction. */
  async function planOf(lookup: (db: Knex) => Promise<unknown>, settings: string[] = []): Promise<string> {
    const sent: { sql: string; bindings: Knex.RawBinding[] }[] = [];
    const record = (query: { sql: string; bindings: Knex.RawBinding[] }) => sent.push(query);
    t.db.on('query', record);
    try {
      await lookup(t.db);
    } finally {
      t.db.off('query', record);
    }
    const [{ sql, bindings }] = sent;
    return t.db.transaction(async (trx) => {
      for (const setting of settings) await trx.raw(setting);
      const explained = await trx.raw(`EXPLAIN ${sql.replace(/\$\d+/g, '?')}`, bindings);
      return (explained.rows as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('looks up 400 e-mails without a trigram index, and with the unique B-tree when it uses an index', async () => {
    const lookup = (db: Knex) => users.findLiveByEmails(txOf(db), emails);
    expect(await planOf(lookup)).not.toMatch(/trgm/);
    expect(await planOf(lookup, ['SET LOCAL enable_seqscan = off'])).toContain('users_email_live_unique');
  });

  it('looks up one e-mail (sign-in) on the unique B-tree', async () => {
    const lookup = (db: Knex) => users.findLiveByEmail(txOf(db), emails[0]);
    expect(await planOf(lookup)).toContain('users_email_live_unique');
  });
});
