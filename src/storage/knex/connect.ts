import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { DatabaseConfig } from '../../config/types.js';

// Timestamps are stored as epoch milliseconds in BIGINT columns; without this
// the pg driver hands them back as strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));

export type Database = Knex;

/**
 * Opens the database described by the config. SQLite runs in WAL mode with a
 * busy timeout so that a second process (another `idp apply`) waits instead
 * of failing; foreign keys are on for both engines.
 */
export function connectDatabase(config: DatabaseConfig): Database {
  if (config.client === 'postgres') {
    if (!config.url) throw new Error('database.url is required when database.client is postgres');
    return knexFactory({
      client: 'pg',
      connection: config.url,
      pool: { min: config.pool.min, max: config.pool.max },
      log: quietLog,
    });
  }
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: config.filename },
    useNullAsDefault: true,
    log: quietLog,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) {
        const pragmas = ['PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 10000'];
        if (config.filename !== ':memory:') pragmas.push('PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL');
        conn.exec(pragmas.map((p) => `${p};`).join(' '), (err) => done(err, conn));
      },
    },
  });
}

interface SqliteConnection {
  exec(sql: string, callback: (err: Error | null) => void): void;
}

/**
 * knex prints "Acquire connection error" with a stack trace to stdout before
 * it rejects the query with the same error. The caller reports that error in
 * one line (a CLI must not print stack traces, and `--format json` output
 * must stay parseable); other warnings go to stderr.
 */
const quietLog = {
  warn(message: unknown) {
    if (typeof message === 'string' && message.startsWith('Acquire connection error')) return;
    process.stderr.write(`knex: ${String(message)}\n`);
  },
};

export function isPostgres(db: Knex): boolean {
  return (db.client as { config: { client: unknown } }).config.client === 'pg';
}
