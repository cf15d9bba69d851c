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
 * which under load made a primary-key read take milliseconds.
 *
 * The connection opens at the first read. A read that fails (the server
 * restarted, the connection was terminated) is tried once more on a new
 * connection, so that a lost connection costs no answer. An in-memory
 * SQLite database is only visible to its own connection: there the read
 * goes through `fallback` (knex's).
 */
export function openGenerationReader(config: DatabaseConfig, fallback: () => Promise<number>): GenerationReader {
  if (config.client === 'postgres') return reconnecting(() => openPostgres(config.url ?? ''));
  if (config.filename === ':memory:') return { read: fallback, close: () => Promise.resolve() };
  return reconnecting(() => openSqlite(config.filename));
}

function reconnecting(open: () => Promise<GenerationReader>): GenerationReader {
  let current: Promise<GenerationReader> | null = null;
  const connection = () => (current ??= open());
  async function drop(failed: Promise<GenerationReader>) {
    if (current === failed) current = null;
    const reader = await failed.catch(() => null);
    await reader?.close().catch(() => undefined);
  }
  return {
    async read() {
      const first = connection();
      try {
        return await (await first).read();
      } catch {
        await drop(first);
        return (await connection()).read();
      }
    },
    async close() {
      const last = current;
      current = null;
      const reader = await last?.catch(() => null);
      await reader?.close();
    },
  };
}

async function openPostgres(url: string): Promise<GenerationReader> {
  const client = new pg.Client({ connectionString: url });
  // A connection lost while idle fails its next read, which opens another (reconnecting above).
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async read() {
      const result = await client.query<[number | string]>({
        name: 'idp_cache_generation',
        text: sql,
        rowMode: 'array',
      });
      return Number(result.rows[0]?.[0] ?? 0);
    },
    close: () => client.end(),
  };
}

async function openSqlite(filename: string): Promise<GenerationReader> {
  // Read-write, never create: a WAL reader writes the shared-memory index, and a missing file is an error, not a new database.
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  const close = () => new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
  db.configure('busyTimeout', 10_000);
  let statement: sqlite3.Statement;
  try {
    statement = await new Promise<sqlite3.Statement>((resolve, reject) => {
      const prepared = db.prepare(sql, (error) => (error ? reject(error) : resolve(prepared)));
    });
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return {
    read: () =>
      new Promise((resolve, reject) => {
        statement
          .get((error: Error | null, row?: { generation: number }) =>
            error ? reject(error) : resolve(row?.generation ?? 0),
          )
          // A stepped statement holds its read snapshot open, which would keep WAL checkpoints from finishing.
          .reset();
      }),
    async close() {
      await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      await close();
    },
  };
}
