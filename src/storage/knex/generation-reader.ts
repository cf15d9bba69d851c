import { channel } from 'node:diagnostics_channel';
import { closeSync, openSync, readSync } from 'node:fs';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import type { DatabaseConfig } from '../../config/types.js';

const sql = 'SELECT generation FROM cache_generation WHERE id = 1';

/**
 * Published once for every statement a reader sends (not for a read the
 * WAL index answers): what the benchmark and the tests count. The name is
 * the contract; subscribers need not import this module.
 */
const generationStatementChannel = channel('idp:cache-generation-statement');

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
 * On SQLite in WAL mode most reads send no statement at all: every commit,
 * by any connection of any process, rewrites the WAL-index header at the
 * start of the `-shm` file before it returns, so while those bytes stand
 * as they were just before the last read, that read's answer is still the
 * database's (see openSqlite).
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
    await client.query({ name: statementName, text: sql });
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    read() {
      generationStatementChannel.publish({ engine: 'postgres' });
      return new Promise((resolve, reject) => client.query(new PreparedRead(resolve, reject)));
    },
    close: () => client.end(),
  };
}

const statementName = 'idp_cache_generation';

/**
 * One execution of the statement prepared at connect, as a pg Submittable
 * (the extension point pg-cursor uses): Bind, Execute and Sync in one
 * write, and the one DataRow back. pg's own Query (its config copies, the
 * Describe and RowDescription round, the Result object) cost about a tenth
 * of the event loop under forward-auth load, for a single integer.
 */
class PreparedRead implements pg.Submittable {
  private generation = 0;
  constructor(
    private readonly resolve: (generation: number) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  submit(connection: pg.Connection): void {
    connection.stream.cork();
    connection.bind({ statement: statementName }, true);
    connection.execute({}, true);
    connection.sync();
    connection.stream.uncork();
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.generation = Number(message.fields[0] ?? 0);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.resolve(this.generation);
  }

  handleError(error: Error): void {
    this.reject(error);
  }
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
  let walIndex: WalIndexHeader | null = null;
  let statement: sqlite3.Statement;
  try {
    walIndex = await openWalIndexHeader(db);
    statement = await new Promise<sqlite3.Statement>((resolve, reject) => {
      const prepared = db.prepare(sql, (error) => (error ? reject(error) : resolve(prepared)));
    });
  } catch (error) {
    walIndex?.close();
    await close().catch(() => undefined);
    throw error;
  }
  const step = () =>
    new Promise<number>((resolve, reject) => {
      generationStatementChannel.publish({ engine: 'sqlite' });
      statement
        .get((error: Error | null, row?: { generation: number }) =>
          error ? reject(error) : resolve(row?.generation ?? 0),
        )
        // A stepped statement holds its read snapshot open, which would keep WAL checkpoints from finishing.
        .reset();
    });
  // The header as it was just before the last read was sent, and what that read found.
  let known: { header: Buffer; generation: number } | null = null;
  return {
    async read() {
      const header = walIndex?.read() ?? null;
      if (header && known?.header.equals(header)) return known.generation;
      const generation = await step();
      known = header ? { header, generation } : null;
      return generation;
    },
    async close() {
      walIndex?.close();
      await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      await close();
    },
  };
}

interface WalIndexHeader {
  /** Both copies of the header, or null when they cannot be read. */
  read(): Buffer | null;
  close(): void;
}

/** The WAL-index header and its copy (sqlite.org/walformat.html, 2.1), the first 96 bytes of the `-shm` file. */
const walIndexHeaderBytes = 96;

/**
 * The WAL-index header of the connection's database, or null when the
 * database is not in WAL mode (no header to trust) or the file does not
 * open. The header is the one every connection of every process reads its
 * snapshot from, so a commit always changes it before it returns (its
 * change counter, last frame and checksum), and nothing but a commit, a
 * WAL restart (at the next commit) or a recovery (which only makes this
 * reader read again) changes it. It is read with a plain pread of 96
 * bytes on the event loop, a page-cache copy: a torn read differs from the
 * kept one and costs one statement. The file stays put while this
 * connection is open: SQLite truncates or deletes it only when no
 * connection holds the database.
 */
async function openWalIndexHeader(db: sqlite3.Database): Promise<WalIndexHeader | null> {
  const first = <Row>(pragma: string) =>
    new Promise<Row | undefined>((resolve, reject) =>
      db.get(pragma, (error: Error | null, row?: Row) => (error ? reject(error) : resolve(row))),
    );
  const mode = await first<{ journal_mode: string }>('PRAGMA journal_mode');
  if (mode?.journal_mode.toLowerCase() !== 'wal') return null;
  // The file SQLite itself opened (database_list names it absolutely, whatever the configured name).
  const main = await first<{ file: string }>("SELECT file FROM pragma_database_list WHERE name = 'main'");
  if (!main?.file) return null;
  let fd: number;
  try {
    fd = openSync(`${main.file}-shm`, 'r');
  } catch {
    return null;
  }
  return {
    read() {
      const header = Buffer.allocUnsafe(walIndexHeaderBytes);
      try {
        return readSync(fd, header, 0, walIndexHeaderBytes, 0) === walIndexHeaderBytes ? header : null;
      } catch {
        return null;
      }
    },
    close: () => closeSync(fd),
  };
}
