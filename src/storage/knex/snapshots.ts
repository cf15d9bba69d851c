import type { Knex } from 'knex';
import type { ColumnKind, Snapshots } from '../repositories.js';
import { isPostgres } from './connect.js';
import { describeSchema, type DescribedTable } from './describe-schema.js';
import { migrationOptions } from './migrate.js';
import { txOf } from './on-knex.js';

/** Rows read per query: a page of the widest table stays a few megabytes. */
const pageSize = 2000;

/**
 * Rows the migrations insert themselves (0017 seeds the cache generation's
 * counter): they do not make a database non-empty, and a restore replaces
 * them with the snapshot's.
 */
const seededByMigrations = ['cache_generation'];

/** Bound parameters per statement, under SQLite's 32766 and PostgreSQL's 65535. */
const parametersPerStatement = 30_000;

export function knexSnapshots(knex: Knex): Snapshots {
  const postgres = isPostgres(knex);
  // knex writes a multi-row insert on SQLite as a compound SELECT, which SQLite caps at 500 terms.
  const rowsPerInsert = postgres ? 1000 : 500;
  return {
    read: (work) =>
      knex.transaction(
        async (trx) => {
          const tables = await describeSchema(trx);
          const migration = await latestApplied(trx);
          return work({
            tx: txOf(trx),
            migration,
            tables,
            pages: (table) => pagesOf(trx, table as DescribedTable),
          });
        },
        postgres ? { isolationLevel: 'repeatable read', readOnly: true } : {},
      ),

    load: (work) =>
      knex.transaction(async (trx) => {
        const described = await describeSchema(trx);
        const tables = new Map(described.map((t) => [t.name, t]));
        const filled = new Set<string>();
        const result = await work({
          tx: txOf(trx),
          tables,
          async nonEmptyTables() {
            const found: string[] = [];
            for (const table of described)
              if (!seededByMigrations.includes(table.name) && (await trx(table.name).first(trx.raw('1 AS present'))))
                found.push(table.name);
            return found;
          },
          batchSize: (columns) => Math.max(1, Math.min(rowsPerInsert, Math.floor(parametersPerStatement / columns))),
          async insert(name, columns, rows) {
            // The seeded rows go before the snapshot's own.
            if (!filled.has(name) && seededByMigrations.includes(name)) await trx(name).delete();
            filled.add(name);
            await trx(name).insert(
              rows.map((row) =>
                Object.fromEntries(columns.map((c, i) => [c.name, toDriver(row[i], c.kind, postgres)])),
              ),
            );
          },
        });
        if (postgres)
          await continueSequences(
            trx,
            described.filter((t) => filled.has(t.name)),
          );
        return result;
      }),

    async knownMigrations() {
      return migrationOptions.migrationSource.getMigrations([]);
    },

    async migrateTo(name) {
      const applied: string[] = [];
      for (;;) {
        const [, pending] = (await knex.migrate.list(migrationOptions)) as [unknown[], string[]];
        // Names sort in the order they run.
        if (pending.length === 0 || pending[0] > name) return applied;
        const next = pending[0];
        await knex.migrate.up(migrationOptions);
        applied.push(next);
      }
    },
  };
}

/** The last applied migration by name (names sort in the order they run). */
async function latestApplied(db: Knex): Promise<string | null> {
  if (!(await db.schema.hasTable(migrationOptions.tableName))) return null;
  // An aggregate always answers one row; its name is null while nothing is applied.
  const row = (await db(migrationOptions.tableName).max('name as name').first()) as { name: string | null };
  return row.name;
}

/** Keyset pages in primary-key order: no OFFSET scans, and the view's transaction keeps them consistent. */
async function* pagesOf(db: Knex, table: DescribedTable): AsyncIterable<unknown[][]> {
  const names = table.columns.map((c) => c.name);
  const key = table.primaryKey.length > 0 ? table.primaryKey : names;
  let after: unknown[] | null = null;
  for (;;) {
    const query = db(table.name).select(names).orderBy(key).limit(pageSize);
    if (after !== null) {
      const bound: unknown[] = after;
      const tuple = `(${key.map(() => '??').join(', ')}) > (${key.map(() => '?').join(', ')})`;
      query.whereRaw(tuple, [...key, ...bound] as Knex.RawBinding[]);
    }
    const rows = (await query) as Record<string, unknown>[];
    if (rows.length === 0) return;
    yield rows.map((row) => table.columns.map((c) => fromDriver(row[c.name], c.kind, table.name, c.name)));
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = key.map((k) => last[k]);
  }
}

/** A stored value in its column's kind, the same from either engine. */
function fromDriver(value: unknown, kind: ColumnKind, table: string, column: string): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'boolean' && typeof value === 'number') return value !== 0;
  // SQLite keeps a bound Date as epoch milliseconds: a time, as PostgreSQL gives it.
  if (kind === 'time' && typeof value === 'number') return new Date(value);
  if (kind === 'json' && typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw new Error(`${table}.${column} holds a value that is not JSON`);
    }
  }
  return value;
}

/** A value of a column's kind as the driver binds it. */
function toDriver(value: unknown, kind: ColumnKind, postgres: boolean): unknown {
  if (value === null) return null;
  if (kind === 'json') return JSON.stringify(value);
  if (kind === 'boolean' && !postgres) return value ? 1 : 0;
  if (value instanceof Date && !postgres) return value.getTime();
  return value;
}

/** After explicit ids, a sequence must continue past the highest one (PostgreSQL does not move it itself). */
async function continueSequences(db: Knex, tables: DescribedTable[]): Promise<void> {
  for (const table of tables)
    for (const column of table.serial)
      await db.raw('SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(??) FROM ??), 0) + 1, false)', [
        table.name,
        column,
        column,
        table.name,
      ]);
}
