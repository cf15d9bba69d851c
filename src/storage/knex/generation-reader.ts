import pg from 'pg';
import sqlite3 from 'sqlite3';
import type { DatabaseConfig } from '../../config/types.js';

const sql = 'SELECT generation FROM cache_generation WHERE id = 1';

export interface GenerationReader {
  read(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The cache generation (migrations/0017) on a connection of its own, with
 * its statement prepared once. Every cached request (bearer tokens,
 * forward authentication) waits for one read that began after it arrived,
 * shared by the requests of an event-loop turn, so the read's latency is
 * theirs: through knex it would queue for the pool (SQLite's one
 * connection is shared with every write) and pay knex's promise chain,
 * which under load made it wait milliseconds for a primary-key read.
 *
 * The connection opens at the first read, and again at the read after it
 * failed. An in-memory SQLite database is only visible to its own
 * connection: there the read goes through `fallback` (knex's).
 */
export function openGenerationReader(config: DatabaseConfig, fallback: () => Promise<number>): GenerationReader {
  if (config.client === 'postgres') return postgresReader(config.url ?? '');
  if (config.filename === ':memory:') return { read: fallback, close: () => Promise.resolve() };
  return sqliteReader(config.filename);
}

function sqliteReader(filename: string): GenerationReader {
  let opening: Promise<{ db: sqlite3.Database; statement: sqlite3.Statement }> | null = null;
  const open = () =>
    (opening ??= new Promise((resolve, reject) => {
      // Read-write, never create: WAL readers write the shared-memory index, and a missing file is an error, not a new database.
      const db = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE, (openError) => {
        if (openError) {
          opening = null;
          reject(openError);
          return;
        }
        db.configure('busyTimeout', 10_000);
        const statement = db.prepare(sql, (prepareError) => {
          if (!prepareError) return resolve({ db, statement });
          opening = null;
          db.close(() => reject(prepareError));
        });
      });
    }));
  return {
    async read() {
      const { statement } = await open();
      return new Promise((resolve, reject) => {
        statement
          .get((error: Error | null, row?: { generation: number }) =>
            error ? reject(error) : resolve(Number(row?.generation ?? 0)),
          )
          // A stepped statement holds its read snapshot open, which would keep WAL checkpoints from finishing.
          .reset();
      });
    },
    async close() {
      const current = opening;
      opening = null;
      if (!current) return;
      const { db, statement } = await current.catch(() => ({ db: null, statement: null }));
      if (!db || !statement) return;
      await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      await new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function postgresReader(url: string): GenerationReader {
  let connecting: Promise<pg.Client> | null = null;
  const connect = () => {
    if (connecting) return connecting;
    const client = new pg.Client({ connectionString: url });
    const attempt = client.connect().then(() => client);
    const forget = () => {
      if (connecting === attempt) connecting = null;
    };
    // A connection the server ended (a restart, pg_terminate_backend): the next read opens another.
    client.on('error', forget);
    client.on('end', forget);
    attempt.catch(forget);
    connecting = attempt;
    return attempt;
  };
  return {
    async read() {
      const client = await connect();
      const result = await client.query<[number | string]>({
        name: 'idp_cache_generation',
        text: sql,
        rowMode: 'array',
      });
      return Number(result.rows[0]?.[0] ?? 0);
    },
    async close() {
      const current = connecting;
      connecting = null;
      const client = await current?.catch(() => null);
      await client?.end();
    },
  };
}
