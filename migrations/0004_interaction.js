// @ts-check
/**
 * The interaction's tables: authorization codes (stored as SHA-256 digests,
 * never in clear, redeemed once) and the consents users gave to clients.
 * Both follow their client and their user: deleting either deletes these rows.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('authorization_codes', (t) => {
    // base64url SHA-256 of the code handed to the client (RFC 6749 §10.5: codes are secrets).
    t.string('code_hash', 64).primary();
    // Ties the tokens issued from this code together, so a replay can revoke them (RFC 6749 §4.1.2).
    t.string('grant_id', 64).notNullable();
    t.string('client_id', 255).notNullable().references('client_id').inTable('clients').onDelete('CASCADE');
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    t.text('redirect_uri').notNullable();
    // Space-separated granted scopes (RFC 6749 §3.3 wire form).
    t.text('scopes').notNullable();
    t.text('nonce');
    t.string('code_challenge', 128);
    t.string('code_challenge_method', 8);
    // Epoch ms of the end-user's authentication (OIDC Core §2 auth_time).
    t.bigInteger('auth_time').notNullable();
    t.string('session_id', 255);
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('consumed_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
    t.index(['grant_id']);
  });

  await knex.schema.createTable('consents', (t) => {
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    t.string('client_id', 255).notNullable().references('client_id').inTable('clients').onDelete('CASCADE');
    // Space-separated scopes granted so far; a later grant adds to them.
    t.text('scopes').notNullable();
    t.bigInteger('granted_at').notNullable();
    t.primary(['sub', 'client_id']);
    t.index(['client_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('consents');
  await knex.schema.dropTableIfExists('authorization_codes');
}
