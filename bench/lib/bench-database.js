// @ts-check
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../../dist/storage/knex/connect.js';
import { openStorage } from '../../dist/app.js';
import { knexOf } from '../../dist/storage/knex/on-knex.js';

/** PostgreSQL server the benchmarks create their throw-away databases on. */
export const benchPostgresUrl =
  process.env.BENCH_PG_URL ?? process.env.IDP_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/**
 * A fresh, migrated database for one benchmark run: a temporary SQLite file
 * (WAL, as in production) or a new PostgreSQL database, dropped by destroy().
 * @param {'sqlite' | 'postgres'} kind
 */
export async function createBenchDatabase(kind) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-bench-'));
    /** @type {import('../../src/config/types.js').DatabaseConfig} */
    const config = { client: 'sqlite', filename: path.join(dir, 'idp.sqlite'), url: null, pool: { min: 1, max: 1 } };
    const storage = openStorage(config);
    await storage.migrate();
    return {
      config,
      storage,
      db: knexOf(storage.db),
      destroy: async () => (await storage.close(), rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `idp_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const adminConfig = {
    client: /** @type {const} */ ('postgres'),
    filename: '',
    url: benchPostgresUrl,
    pool: { min: 0, max: 1 },
  };
  const admin = connectDatabase(adminConfig);
  await admin.raw(`CREATE DATABASE ${name}`).finally(() => admin.destroy());
  const url = new URL(benchPostgresUrl);
  url.pathname = `/${name}`;
  const config = {
    client: /** @type {const} */ ('postgres'),
    filename: '',
    url: url.toString(),
    pool: { min: 0, max: 4 },
  };
  const storage = openStorage(config);
  await storage.migrate();
  return {
    config,
    storage,
    db: knexOf(storage.db),
    async destroy() {
      await storage.close();
      const dropper = connectDatabase(adminConfig);
      await dropper.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => dropper.destroy());
    },
  };
}
