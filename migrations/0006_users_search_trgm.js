// @ts-check
/**
 * Trigram indexes for the admin user search on PostgreSQL (issue 3 bench:
 * `query=` is a case-insensitive substring of the e-mail or the sub, i.e.
 * `LIKE '%…%'`, which no B-tree serves; over 100,000 users the sequential
 * scan put p99 near 100 ms, GIN trigram indexes bring it under 15 ms).
 * The expressions match the list query in src/storage/knex/users.ts.
 *
 * pg_trgm ships with PostgreSQL and is a trusted extension (13+): a database
 * owner may create it. Where it cannot be created, the search keeps working
 * without these indexes, so the migration skips them rather than failing
 * `idp serve` (docs/admin-bench.md). SQLite has no equivalent index; its
 * search stays a scan.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  if (knex.client.config.client !== 'pg') return;
  // A savepoint: a refused CREATE EXTENSION must not abort the migration's transaction.
  const available = await knex
    .transaction(async (savepoint) => {
      await savepoint.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      return true;
    })
    .catch(() => false);
  if (!available) return;
  await knex.raw(
    'CREATE INDEX users_live_email_trgm ON users USING gin (email_normalized gin_trgm_ops) WHERE deleted_at IS NULL',
  );
  await knex.raw(
    'CREATE INDEX users_live_sub_trgm ON users USING gin (lower(sub) gin_trgm_ops) WHERE deleted_at IS NULL',
  );
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  if (knex.client.config.client !== 'pg') return;
  // The extension stays: other objects may use it.
  await knex.raw('DROP INDEX IF EXISTS users_live_email_trgm');
  await knex.raw('DROP INDEX IF EXISTS users_live_sub_trgm');
}
