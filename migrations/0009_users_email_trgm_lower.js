// @ts-check
/**
 * Replaces the e-mail trigram index of 0006 (`email_normalized`, live users
 * only) by one on `lower(email_normalized)` over all users (PostgreSQL
 * only). The admin search (src/storage/knex/users.ts) matches the new
 * expression; the values are already lower-cased, so it finds the same rows.
 *
 * Why an expression: pg_trgm 1.6 (PostgreSQL 14+) lets a trigram index
 * answer `=` too, so an index on the bare column competed with the unique
 * B-tree for every e-mail lookup. A GIN index filled in bulk is costed from
 * its build-time statistics and its pending list, which only VACUUM
 * refreshes (ANALYZE does not): after apply loaded 3,000 users, the planner
 * took the trigram index for apply's `email_normalized IN (400 e-mails)`,
 * even after an ANALYZE: 400 GIN scans that each re-read the pending list,
 * ~2.4 s per batch (issue 10 item 10). An index on an expression serves
 * only that expression: e-mail equality is left to the B-tree, whatever
 * the statistics.
 *
 * Why not partial: the planner reads the statistics ANALYZE gathers on an
 * index expression only from a non-partial index. Without them it guesses
 * that `%example%` matches 10 rows of 100,000 and reads all of them through
 * the trigram index (~300 ms) instead of the first page in e-mail order
 * (< 1 ms). Soft-deleted users in the index cost little, and a search that
 * includes them can use it too.
 *
 * Where 0006 could not create pg_trgm there is no index to replace.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  if (!(await indexExists(knex, 'users_live_email_trgm'))) return;
  await knex.raw('DROP INDEX users_live_email_trgm');
  await knex.raw('CREATE INDEX users_email_lower_trgm ON users USING gin (lower(email_normalized) gin_trgm_ops)');
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  if (!(await indexExists(knex, 'users_email_lower_trgm'))) return;
  await knex.raw('DROP INDEX users_email_lower_trgm');
  await knex.raw(
    'CREATE INDEX users_live_email_trgm ON users USING gin (email_normalized gin_trgm_ops) WHERE deleted_at IS NULL',
  );
}

/**
 * @param {import('knex').Knex} knex
 * @param {string} name
 */
async function indexExists(knex, name) {
  if (knex.client.config.client !== 'pg') return false;
  // Resolved through search_path, like the statements above.
  const found = await knex.raw('SELECT to_regclass(?) IS NOT NULL AS present', [name]);
  return found.rows[0].present === true;
}
