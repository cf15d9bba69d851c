import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Knex } from 'knex';
import { restoreBackup, writeBackup } from '../../src/backup/index.js';
import { systemClock } from '../../src/clock.js';
import type { Storage } from '../../src/storage/repositories.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { knexOf } from '../../src/storage/knex/on-knex.js';
import type { UserRecord } from '../../src/model/index.js';

const testUserRecord: UserRecord = {
  sub: '',
  managedBy: 'database',
  email: '',
  role: 'user',
  emailVerified: true,
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

const secret = 'values-secret-values-secret-0123456789';

/** A table with the column types the migrations do not use (yet): binary, JSON, time, float, an id from a sequence. */
async function createExtraTable(db: Knex): Promise<void> {
  await db.schema.createTable('extra_values', (t) => {
    t.increments('id');
    t.binary('blob');
    t.json('doc');
    t.timestamp('at', { useTz: true });
    t.float('ratio');
    t.boolean('flag');
    t.string('label');
    t.specificType('address', 'inet');
  });
  // No primary key: read in the order of all its columns.
  await db.schema.createTable('extra_keyless', (t) => {
    t.string('word').notNullable();
  });
}

async function rowsOf(storage: Storage, table: string): Promise<unknown[][]> {
  return storage.snapshots.read(async (view) => {
    const rows: unknown[][] = [];
    for await (const page of view.pages(view.tables.find((t) => t.name === table)!)) rows.push(...page);
    return rows;
  });
}

/**
 * Values of every column type cross the engines as they were (booleans as
 * booleans, binary, JSON, times), and ids from sequences continue after a
 * restore: the next event or row gets a new id, not one the backup brought.
 */
describe.each(databaseKinds)('column values from %s to the other engine', (kind) => {
  const other = kind === 'sqlite' ? 'postgres' : 'sqlite';
  let dir: string;
  let source: TestDatabase;
  let target: TestDatabase;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-values-'));
    source = await createTestDatabase(kind);
    target = await createTestDatabase(other, { migrate: false });
    await createExtraTable(source.db);
    await createExtraTable(target.db);
  });
  afterAll(async () => {
    await source.destroy();
    await target.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores binary, JSON, times, floats and booleans, and continues the sequences', async () => {
    await source.db('extra_values').insert([
      {
        blob: Buffer.from([0, 1, 2, 255]),
        doc: JSON.stringify({ base64: 'not a tag', list: [1, 'two', null] }),
        at: new Date('2026-11-27T05:00:00.123Z'),
        ratio: 0.5,
        flag: true,
        label: 'ünïcødé "quoted"\nline',
        address: '10.0.0.1',
      },
      { blob: null, doc: null, at: null, ratio: null, flag: false, label: null, address: null },
    ]);
    await source.db('extra_keyless').insert([{ word: 'b' }, { word: 'a' }, { word: 'b' }]);
    const event = {
      time: 1,
      type: 'sign_out' as const,
      actor: 'config',
      subject: 'alice',
      clientAddress: null,
      clientId: null,
      detail: {},
    };
    // More than one insert's worth (SQLite takes 500 rows per statement, PostgreSQL 1,000), and
    // more than two pages of 2,000 rows, read by one key and by a key of three columns.
    await source.storage.repositories.events.appendMany(
      source.tx,
      Array.from({ length: 4103 }, () => event),
    );
    await source.db.transaction(async (trx) => {
      for (let i = 0; i < 1100; i += 100) {
        const subs = Array.from({ length: 100 }, (_, j) => `user-${String(i + j).padStart(4, '0')}`);
        await knexUserRepository.insertMany(
          trx as never,
          subs.map((sub) => ({ ...testUserRecord, sub, email: `${sub}@example.com` })),
        );
        await trx('term_acceptances').insert(
          subs.flatMap((sub) => ['1', '2'].map((version) => ({ sub, term_id: 'tos', version, accepted_at: 1 }))),
        );
      }
    });

    const file = path.join(dir, 'values.gz');
    await writeBackup({ storage: source.storage, clock: systemClock, configuredSecret: secret }, file);
    await restoreBackup({ storage: target.storage, configuredSecret: secret }, file);

    const restored = await rowsOf(target.storage, 'extra_values');
    expect(restored).toEqual(await rowsOf(source.storage, 'extra_values'));
    expect(restored[0]).toEqual([
      1,
      Buffer.from([0, 1, 2, 255]),
      { base64: 'not a tag', list: [1, 'two', null] },
      new Date('2026-11-27T05:00:00.123Z'),
      0.5,
      true,
      'ünïcødé "quoted"\nline',
      '10.0.0.1',
    ]);
    expect(await rowsOf(target.storage, 'extra_keyless')).toEqual([['a'], ['b'], ['b']]);

    await target.db('extra_values').insert({ flag: true });
    expect((await target.db('extra_values').max('id as id').first())?.id).toBe(3);
    await target.storage.repositories.events.append(target.tx, event);
    const { events } = await target.storage.repositories.events.list(target.tx, { page: 1, pageSize: 10 });
    expect(events[0].id).toBe(4104);
    expect((await target.storage.repositories.events.list(target.tx, { page: 1, pageSize: 1 })).total).toBe(4104);
    expect(await rowsOf(target.storage, 'term_acceptances')).toEqual(await rowsOf(source.storage, 'term_acceptances'));
    expect(Number((await target.db('term_acceptances').count({ n: '*' }).first())?.n)).toBe(2200);
  });

  it.runIf(kind === 'postgres')('reads in one REPEATABLE READ, READ ONLY transaction', async () => {
    const seen = await source.storage.snapshots.read(async (view) => {
      const db = knexOf(view.tx);
      const { rows } = await db.raw<{ rows: { transaction_isolation: string }[] }>('SHOW transaction_isolation');
      const write = await db('extra_keyless')
        .insert({ word: 'c' })
        .then(
          () => 'written',
          (e: unknown) => (e as Error).message,
        );
      return { isolation: rows[0].transaction_isolation, write };
    });
    expect(seen).toEqual({
      isolation: 'repeatable read',
      write: expect.stringContaining('cannot execute INSERT in a read-only transaction'),
    });
  });

  it.runIf(kind === 'sqlite')('fails a backup of a JSON column holding something else, leaving no file', async () => {
    await source.db('extra_values').update({ doc: 'not json' });
    const file = path.join(dir, 'broken.gz');
    await expect(
      writeBackup({ storage: source.storage, clock: systemClock, configuredSecret: secret }, file),
    ).rejects.toThrow('extra_values.doc holds a value that is not JSON');
    expect((await readdir(dir)).filter((f) => f.includes('broken'))).toEqual([]);
  });
});
