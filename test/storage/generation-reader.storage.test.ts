import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { openKnexStorage } from '../../src/storage/knex/open-knex-storage.js';
import { openGenerationReader } from '../../src/storage/knex/generation-reader.js';
import { knexOf } from '../../src/storage/knex/on-knex.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';

/** The current generation as knex's own connection reads it. */
async function generationOf(db: Knex): Promise<number> {
  const row = (await db('cache_generation').where({ id: 1 }).first()) as { generation: number | string };
  return Number(row.generation);
}

const bump = (db: Knex) => db('cache_generation').where({ id: 1 }).increment('generation', 1);

describe.each(databaseKinds)('the cache generation read on its own connection (%s)', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.destroy());

  it('reads what the database holds, and a change committed before the read began, by this storage or another', async () => {
    expect(await t.storage.readCacheGeneration()).toBe(await generationOf(t.db));
    await bump(t.db);
    expect(await t.storage.readCacheGeneration()).toBe(await generationOf(t.db));
    // Another process (`idp apply`, another instance) writes through a storage of its own.
    const other = openKnexStorage(t.config);
    try {
      await bump(knexOf(other.db));
    } finally {
      await other.close();
    }
    expect(await t.storage.readCacheGeneration()).toBe(await generationOf(t.db));
  });

  it('shares no transaction with knex: a read is answered while a write transaction is open', async () => {
    const before = await generationOf(t.db);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = t.db.transaction(async (trx) => {
      await bump(trx);
      await held;
    });
    // The write is not committed yet: the read sees the generation before it, without waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await t.storage.readCacheGeneration()).toBe(before);
    release();
    await writing;
    expect(await t.storage.readCacheGeneration()).toBe(before + 1);
  });

  it('answers on a new connection after its own was lost, and fails when the database is gone', async () => {
    const reader = openGenerationReader(t.config, () => Promise.reject(new Error('not used')));
    try {
      expect(await reader.read()).toBe(await generationOf(t.db));
      if (kind === 'postgres') {
        const killed = await t.db.raw<{ rows: { killed: boolean }[] }>(
          "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT generation FROM cache_generation%' AND pid <> pg_backend_pid()",
        );
        expect(killed.rows.some((r) => r.killed)).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await bump(t.db);
      expect(await reader.read()).toBe(await generationOf(t.db));
    } finally {
      await reader.close();
    }
    const missing =
      kind === 'postgres'
        ? { ...t.config, url: t.config.url!.replace(/\/[^/]*$/, '/idp_no_such_database') }
        : { ...t.config, filename: `${t.config.filename}.missing` };
    const unreachable = openGenerationReader(missing, () => Promise.reject(new Error('not used')));
    await expect(unreachable.read()).rejects.toThrow();
    await unreachable.close();
  });
});

describe('the cache generation read of an in-memory SQLite database', () => {
  it('goes through knex, the only connection that sees the database', async () => {
    const storage = openKnexStorage({ client: 'sqlite', filename: ':memory:', url: null, pool: { min: 1, max: 1 } });
    try {
      await storage.migrate();
      const first = await storage.readCacheGeneration();
      await bump(knexOf(storage.db));
      expect(await storage.readCacheGeneration()).toBe(first + 1);
    } finally {
      await storage.close();
    }
  });
});
