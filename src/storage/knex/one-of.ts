import type { Knex } from 'knex';
import { isPostgres } from './connect.js';
import { inBatches } from './in-batches.js';

/** Values per `IN (…)` list on SQLite: far below its 32,766 bound parameters. */
const SQLITE_LIST_SIZE = 400;

/**
 * Splits a lookup list into the lists whereOneOf takes, one statement each:
 * on PostgreSQL the whole list (it is ONE bound parameter, whatever its
 * length: 10,000 e-mails cost 60 ms in one statement, 200 ms in 25), on
 * SQLite slices of 400. No list for no values: no statement.
 */
export function oneOfLists<T>(db: Knex, values: readonly T[]): T[][] {
  if (!isPostgres(db)) return inBatches(values, SQLITE_LIST_SIZE);
  return values.length === 0 ? [] : [[...values]];
}

/**
 * Rows of `table` whose `column` is one of `values` (a list from
 * oneOfLists), ready for more conditions, an update or a delete.
 * PostgreSQL: `column = ANY(?)` with the list bound as one array; SQLite,
 * which has no arrays: `column IN (?, ?, …)`. Either way the planner sees
 * the same constant list, so the plan depends on the indexes and the
 * statistics only (see migration 0009).
 */
export function whereOneOf(db: Knex, table: string, column: string, values: string[]): Knex.QueryBuilder {
  if (isPostgres(db)) return db(table).whereRaw('?? = ANY(?)', [column, values]);
  return db(table).whereIn(column, values);
}

/** Narrows `builder` to rows whose `column` is one of `values` (a list from oneOfLists), as whereOneOf does. */
export function andOneOf(db: Knex, builder: Knex.QueryBuilder, column: string, values: string[]): Knex.QueryBuilder {
  if (isPostgres(db)) return builder.whereRaw('?? = ANY(?)', [column, values]);
  return builder.whereIn(column, values);
}
