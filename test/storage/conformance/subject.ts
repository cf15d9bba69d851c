import { afterAll, beforeAll } from 'vitest';
import type { Knex } from 'knex';
import { openStorage } from '../../../src/app.js';
import type { Repositories, Storage, Tx } from '../../../src/storage/repositories.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../support/databases.js';

/**
 * What every block tests: the Storage of one fresh, migrated database.
 * The fields are filled by the entry file's beforeAll, so blocks read them
 * inside hooks and tests, never while vitest collects them.
 */
export interface Subject {
  readonly kind: DatabaseKind;
  database: TestDatabase;
  storage: Storage;
  /** storage.db: the autocommit unit of work. */
  db: Tx;
  repositories: Repositories;
}

/** Registers the hooks that create the subject's database before the blocks run and drop it after. */
export function useSubject(kind: DatabaseKind): Subject {
  const subject = { kind } as Subject;
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    Object.assign(subject, {
      database,
      storage: database.storage,
      db: database.storage.db,
      repositories: database.storage.repositories,
    });
  });
  afterAll(() => subject.database?.destroy());
  return subject;
}

/**
 * Empties tables (all of them when none are named) through the raw handle:
 * the interfaces have no "delete everything". Every foreign key cascades,
 * so the order does not matter.
 */
export async function cleanTables(db: Knex, tables?: string[]): Promise<void> {
  for (const table of tables ?? (await listTables(db))) await db(table).delete();
}

async function listTables(db: Knex): Promise<string[]> {
  const names =
    db.client.config.client === 'pg'
      ? (
          await db.raw<{ rows: { name: string }[] }>(
            `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`,
          )
        ).rows
      : await db.raw<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table'`);
  // cache_generation is one fixed row (migrations/0017), not data to empty.
  return names
    .map((row) => row.name)
    .filter((name) => !name.startsWith('knex_') && !name.startsWith('sqlite_') && name !== 'cache_generation');
}

/**
 * Opens `count` more storages on the subject's database, so that concurrent
 * calls use separate connections (real races on PostgreSQL, serialised by
 * SQLite's single writer), runs `work`, and closes them.
 */
export async function withStorages<T>(
  subject: Subject,
  count: number,
  work: (storages: Storage[]) => Promise<T>,
): Promise<T> {
  const storages = Array.from({ length: count }, () => openStorage(subject.database.config));
  try {
    // Connect first, so that the calls under test start together.
    await Promise.all(storages.map((storage) => storage.ping()));
    return await work(storages);
  } finally {
    await Promise.all(storages.map((storage) => storage.close()));
  }
}

/** How many separate connections race in the concurrency tests. */
export const racers = 8;
