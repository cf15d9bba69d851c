import type { Knex } from 'knex';
import { isPostgres } from './connect.js';

/** autovacuum's defaults: ANALYZE once 50 rows plus 10% of the table changed. */
const ANALYZE_BASE_ROWS = 50;
const ANALYZE_SCALE = 0.1;

/**
 * ANALYZEs the tables in which `changed` rows were written, when
 * autovacuum, with its default thresholds, would: at once rather than up
 * to a minute later, and even where autovacuum is off. A table never
 * analyzed (reltuples -1) always is.
 *
 * Inside a transaction, ANALYZE samples that transaction's own rows as
 * live, and its statistics commit (or roll back) with them.
 *
 * SQLite: nothing. Without sqlite_stat1 its planner takes an equality on an
 * indexed column as selective, which every lookup here is (after a bulk
 * load the plans are the same, measured with and without ANALYZE), and
 * SQLite never refreshes those statistics by itself once written: stale
 * ones could mislead it where none do not.
 */
export async function refreshStatistics(db: Knex, changed: Record<string, number>): Promise<void> {
  if (!isPostgres(db)) return;
  const written = Object.entries(changed).filter(([, rows]) => rows > 0);
  if (written.length === 0) return;
  const sizes = await db.raw<{ rows: { relname: string; reltuples: number }[] }>(
    'SELECT relname, reltuples FROM pg_class WHERE oid = ANY(?::regclass[])',
    [written.map(([table]) => table)],
  );
  const reltuples = new Map(sizes.rows.map((row) => [row.relname, row.reltuples]));
  const due = written
    .filter(([table, rows]) => {
      const tuples = reltuples.get(table) ?? -1;
      return tuples < 0 || rows > ANALYZE_BASE_ROWS + ANALYZE_SCALE * tuples;
    })
    .map(([table]) => table);
  if (due.length > 0) await db.raw(`ANALYZE ${due.map(() => '??').join(', ')}`, due);
}
