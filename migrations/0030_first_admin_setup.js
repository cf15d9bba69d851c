// @ts-check
/**
 * The first admin's one-time setup links (docs/cli-admin.md, "The first
 * admin"): `idp serve` issues one at each start while no active admin
 * exists. Only the SHA-256 of the 32 random bytes is kept, in the database
 * so that any instance behind the same base URL can answer the link. The
 * setup takes every row at once (one DELETE): of two concurrent setups one
 * gets them, the other none.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('first_admin_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('first_admin_tokens');
}
