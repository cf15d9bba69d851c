// @ts-check
/**
 * The cache generation (issue #16): one row whose number goes up, in the
 * writing transaction itself, whenever something an in-memory cache may
 * hold stops being true: a grant revoked or deleted, an access token
 * revoked, a user changed or deleted. Every instance reads the number before
 * it trusts its caches (src/storage/generation-gate.ts) and drops them all
 * when it moved, so a revocation answered by one instance holds on every
 * instance for the next request.
 *
 * Triggers rather than application code: `idp apply`, the cleanup jobs and
 * any future writer bump it without knowing about the caches, and a
 * rolled-back change never does.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('cache_generation', (t) => {
    t.integer('id').primary();
    t.bigInteger('generation').notNullable();
  });
  await knex('cache_generation').insert({ id: 1, generation: 0 });

  if (knex.client.config.client === 'pg') {
    await knex.raw(`
      CREATE FUNCTION bump_cache_generation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE cache_generation SET generation = generation + 1 WHERE id = 1;
        RETURN NULL;
      END $$`);
    // Statement-level: a bulk revocation bumps once, not once per row.
    for (const [name, event, table] of triggers) {
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_generation()`,
      );
    }
    return;
  }
  for (const [name, event, table, when] of triggers) {
    await knex.raw(
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${when ? `WHEN ${when} ` : ''}BEGIN UPDATE cache_generation SET generation = generation + 1 WHERE id = 1; END`,
    );
  }
}

/**
 * [name, event, table, SQLite row condition]. Refresh-token rotation and
 * grant expiry extension are not here: no cache holds them, and they run on
 * every refresh.
 * @type {[string, string, string, string | null][]}
 */
const triggers = [
  ['grants_revoked_bump', 'UPDATE OF revoked_at', 'grants', 'NEW.revoked_at IS NOT OLD.revoked_at'],
  ['grants_deleted_bump', 'DELETE', 'grants', null],
  ['revoked_access_tokens_bump', 'INSERT', 'revoked_access_tokens', null],
  ['users_changed_bump', 'UPDATE', 'users', null],
  ['users_deleted_bump', 'DELETE', 'users', null],
];

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const [name, , table] of triggers)
    await knex.raw(`DROP TRIGGER IF EXISTS ${name}${knex.client.config.client === 'pg' ? ` ON ${table}` : ''}`);
  if (knex.client.config.client === 'pg') await knex.raw('DROP FUNCTION IF EXISTS bump_cache_generation()');
  await knex.schema.dropTableIfExists('cache_generation');
}
