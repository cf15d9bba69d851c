import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
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

/** How many statements the readers send while `work` runs (the channel the benchmark counts too). */
async function statementsSentBy(work: () => Promise<unknown>): Promise<number> {
  let sent = 0;
  const count = () => {
    sent++;
  };
  subscribe('idp:cache-generation-statement', count);
  try {
    await work();
  } finally {
    unsubscribe('idp:cache-generation-statement', count);
  }
  return sent;
}

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

  it('sends a statement for every read on PostgreSQL, and on SQLite only when a commit came since the last one', async () => {
    const reader = openGenerationReader(t.config, () => Promise.reject(new Error('not used')));
    try {
      await reader.read();
      const idle = await statementsSentBy(async () => {
        for (let i = 0; i < 5; i++) expect(await reader.read()).toBe(await generationOf(t.db));
      });
      expect(idle).toBe(kind === 'postgres' ? 5 : 0);
      // Any commit moves the WAL index, this storage's or another's: the next read asks, then the one after need not.
      await t.db('settings').insert({ key: 'test.generation-reader', value: '1', updated_at: 0 });
      expect(await statementsSentBy(() => reader.read())).toBe(1);
      const other = openKnexStorage(t.config);
      try {
        await bump(knexOf(other.db));
      } finally {
        await other.close();
      }
      let seen = 0;
      expect(await statementsSentBy(async () => (seen = await reader.read()))).toBe(1);
      expect(seen).toBe(await generationOf(t.db));
      expect(await statementsSentBy(() => reader.read())).toBe(kind === 'postgres' ? 1 : 0);
    } finally {
      await reader.close();
    }
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

describe('the cache generation read of a SQLite database not in WAL mode', () => {
  it('sends a statement for every read: without a WAL index nothing tells that no commit came', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'idp-generation-'));
    const filename = path.join(dir, 'rollback.sqlite');
    const db = new sqlite3.Database(filename);
    const run = (statement: string) =>
      new Promise<void>((resolve, reject) => db.exec(statement, (error) => (error ? reject(error) : resolve())));
    const reader = openGenerationReader({ client: 'sqlite', filename, url: null, pool: { min: 1, max: 1 } }, () =>
      Promise.reject(new Error('not used')),
    );
    try {
      await run(
        'PRAGMA journal_mode = DELETE; CREATE TABLE cache_generation (id INTEGER PRIMARY KEY, generation INTEGER); INSERT INTO cache_generation VALUES (1, 7);',
      );
      expect(await reader.read()).toBe(7);
      expect(await statementsSentBy(() => reader.read())).toBe(1);
      await run('UPDATE cache_generation SET generation = 8');
      expect(await reader.read()).toBe(8);
    } finally {
      await reader.close();
      await new Promise((resolve) => db.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
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
