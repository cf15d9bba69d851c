// @ts-check
/**
 * The Device Authorization Grant (RFC 8628): one row per device
 * authorization request, from POST /oauth2/device_authorization until it
 * expires (the cleanup job deletes it then, spent or not, so that a replay
 * inside the lifetime is still recognised).
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('device_codes', (t) => {
    // base64url SHA-256 of the device code (a bearer secret, RFC 8628 §5.2): never the code itself.
    t.string('device_code_hash', 64).primary();
    // The 8 letters the user types (RFC 8628 §6.1), upper case without the dash; unique while stored.
    t.string('user_code', 16).notNullable().unique();
    t.string('client_id', 255).notNullable().references('client_id').inTable('clients').onDelete('CASCADE');
    // JSON array of the scopes to grant.
    t.text('scopes').notNullable();
    // pending, approved or denied.
    t.string('status', 16).notNullable();
    // Who allowed it on the consent page; only their approval counts.
    t.string('confirmed_by', 255).references('sub').inTable('users').onDelete('CASCADE');
    // The approving sign-in: who, in which session, how and when.
    t.string('sub', 255).references('sub').inTable('users').onDelete('CASCADE');
    t.string('session_id', 255);
    // SessionRecord.public_id of that session: the sid of the grant's ID tokens.
    t.string('sid', 64);
    t.text('amr').notNullable();
    t.bigInteger('auth_time');
    t.string('grant_id', 64).notNullable();
    // RFC 8628 §3.5: the least seconds between polls, grown by slow_down.
    t.integer('interval_seconds').notNullable();
    t.bigInteger('last_polled_at');
    t.bigInteger('expires_at').notNullable();
    // When the tokens were issued: the code is then spent.
    t.bigInteger('spent_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('device_codes');
}
