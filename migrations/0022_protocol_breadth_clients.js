// @ts-check
/**
 * Client fields of protocol breadth (issue 24): Back-Channel Logout 1.0
 * (where Logout Tokens go, whether `sid` is required), RFC 9126's
 * require_pushed_authorization_requests, and whether the file pinned
 * token_endpoint_auth_method (unpinned, a secret client accepts Basic and
 * POST credentials alike). Rows stored before read as unpinned, as the file
 * that created them could not say; the next apply stores the truth.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.alterTable('clients', (t) => {
    t.boolean('token_endpoint_auth_method_pinned').notNullable().defaultTo(false);
    t.text('backchannel_logout_uri').nullable();
    t.boolean('backchannel_logout_session_required').notNullable().defaultTo(false);
    t.boolean('require_pushed_authorization_requests').notNullable().defaultTo(false);
  });
}

/**
 * SQLite's knex dropColumn rebuilds the table, and the rebuild would
 * cascade deletes into the tables that reference clients: plain ALTER TABLE
 * DROP COLUMN keeps every row (SQLite 3.35+).
 *
 * @param {import('knex').Knex} knex
 */
export async function down(knex) {
  const columns = [
    'token_endpoint_auth_method_pinned',
    'backchannel_logout_uri',
    'backchannel_logout_session_required',
    'require_pushed_authorization_requests',
  ];
  for (const column of columns) await knex.raw('ALTER TABLE clients DROP COLUMN ??', [column]);
}
