// @ts-check
/**
 * Pushed authorization requests (RFC 9126): what a client pushed to
 * POST /oauth2/par, kept until the authorization endpoint claims it by its
 * request_uri, once (docs/oidc.md, "Pushed authorization requests"). Only
 * the SHA-256 of the request_uri's random part is stored; rows go with
 * their client, and the cleanup job deletes them once expired.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('pushed_authorization_requests', (t) => {
    t.string('request_hash', 64).primary();
    t.string('client_id', 255).notNullable().references('client_id').inTable('clients').onDelete('CASCADE');
    // The single-valued authorization parameters as a JSON object.
    t.text('params').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('pushed_authorization_requests');
}
