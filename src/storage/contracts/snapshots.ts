/** Whole-database snapshots: what `idp backup` reads and `idp restore` writes (docs/operations.md). */
import type { Tx } from './tx.js';

/**
 * What a column holds, from its declared type, the same on either engine:
 * booleans are true/false (never SQLite's 0/1), binary is a Buffer, json is
 * the parsed value, time is what the driver gives (a Date on PostgreSQL).
 */
export type ColumnKind = 'boolean' | 'integer' | 'number' | 'text' | 'binary' | 'json' | 'time' | 'other';

export interface SnapshotColumn {
  name: string;
  kind: ColumnKind;
}

export interface SnapshotTable {
  name: string;
  columns: SnapshotColumn[];
  /** The tables this one references through foreign keys (never itself). */
  references: string[];
}

/** One consistent view of every table, inside a read-only transaction. */
export interface SnapshotView {
  /** The unit of work of the view, for reading repositories (the generated secret) in the same snapshot. */
  tx: Tx;
  /** The latest migration applied (the schema's level), null before any. */
  migration: string | null;
  /** Every table but the migrator's own, each after the tables it references. */
  tables: SnapshotTable[];
  /** The rows of a table in primary-key order, a page at a time, values in its columns' order. */
  pages(table: SnapshotTable): AsyncIterable<unknown[][]>;
}

/** Writes rows into the database inside the restore's one transaction. */
export interface SnapshotLoader {
  tx: Tx;
  /** The tables of the database (at the migration level restored), by name. */
  tables: ReadonlyMap<string, SnapshotTable>;
  /** The tables that hold a row, apart from the rows the migrations themselves seed: none for an empty database. */
  nonEmptyTables(): Promise<string[]>;
  /** The largest number of rows `insert` takes at once for a table of that many columns. */
  batchSize(columns: number): number;
  /** Inserts rows of these columns of the table, values in the columns' kinds. */
  insert(table: string, columns: SnapshotColumn[], rows: unknown[][]): Promise<void>;
}

export interface Snapshots {
  /** Runs `work` on one consistent view: PostgreSQL REPEATABLE READ READ ONLY, a read transaction on SQLite. */
  read<T>(work: (view: SnapshotView) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction that rolls back when it throws. The
   * first insert into a table the migrations seed replaces the seeded rows
   * (a snapshot brings its own); after `work`, the sequences and identity
   * columns of the tables inserted into continue past their highest id.
   */
  load<T>(work: (loader: SnapshotLoader) => Promise<T>): Promise<T>;
  /** The names of the migrations this build has, in order. */
  knownMigrations(): Promise<string[]>;
  /** Runs pending migrations up to and including `name`, no further; resolves with their names. */
  migrateTo(name: string): Promise<string[]>;
}
