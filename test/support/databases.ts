import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { openStorage } from '../../src/app.js';
import { knexOf } from '../../src/storage/knex/on-knex.js';
import type { Storage, Tx } from '../../src/storage/repositories.js';
import type { DatabaseConfig } from '../../src/config/types.js';

/** Every storage test runs against both engines. */
export const databaseKinds = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

export const postgresAdminUrl = process.env.IDP_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  config: DatabaseConfig;
  /** The storage the app is built on (src/app.ts openStorage). */
  storage: Storage;
  /** The knex handle behind `storage`, for tests that look at rows directly. */
  db: Knex;
  /** The same handle as the unit of work the repositories take. */
  tx: Tx;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated, private database: a temporary SQLite file, or a new
 * PostgreSQL database dropped afterwards. Pass `migrate: false` to get an
 * empty one.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const config = kind === 'sqlite' ? await createSqlite() : await createPostgres();
  const storage = openStorage(config.config);
  if (options.migrate !== false) await storage.migrate();
  return {
    kind,
    config: config.config,
    storage,
    db: knexOf(storage.db),
    tx: storage.db,
    async destroy() {
      await storage.close();
      await config.cleanup();
    },
  };
}

async function createSqlite(): Promise<{ config: DatabaseConfig; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'idp-test-'));
  return {
    config: { client: 'sqlite', filename: path.join(dir, 'idp.sqlite'), url: null, pool: { min: 1, max: 1 } },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function createPostgres(): Promise<{ config: DatabaseConfig; cleanup(): Promise<void> }> {
  const name = `idp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: postgresAdminUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    config: { client: 'postgres', filename: '', url: url.toString(), pool: { min: 0, max: 10 } },
    async cleanup() {
      const drop = knexFactory({ client: 'pg', connection: postgresAdminUrl, pool: { min: 0, max: 1 } });
      try {
        await drop.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await drop.destroy();
      }
    },
  };
}
