// @ts-check
/**
 * Second factors (docs/http-api.md, "Second factors"): a user's authenticator app (TOTP), its
 * recovery codes, passkeys (WebAuthn credentials) and the WebAuthn
 * challenges of ceremonies in progress, kept here so that any instance can
 * finish a ceremony another began. Every factor row follows its user.
 *
 * Also the RFC 8176 `amr` of a sign-in, carried from the session through
 * the authorization code to the grant, so that the ID tokens of a code and
 * of its refreshes name the factors that were used.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('totp_credentials', (t) => {
    t.string('sub', 255).primary().references('sub').inTable('users').onDelete('CASCADE');
    // AES-256-GCM of the base32 secret under a key derived from security.secret, the sub as additional data.
    t.text('secret').notNullable();
    // Null while the enrolment waits for its first code.
    t.bigInteger('confirmed_at');
    // The last 30-second step whose code was accepted: that step and every earlier one are refused (replay).
    t.bigInteger('last_used_step');
    t.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('recovery_codes', (t) => {
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    // HMAC-SHA-256 (base64url) of the normalised code under a key derived from security.secret.
    t.string('code_hash', 64).notNullable();
    t.bigInteger('used_at');
    t.bigInteger('created_at').notNullable();
    t.primary(['sub', 'code_hash']);
  });

  await knex.schema.createTable('passkeys', (t) => {
    t.string('id', 36).primary();
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    // WebAuthn credential id (base64url); an authenticator's credential belongs to one account only.
    t.string('credential_id', 1400).notNullable().unique();
    t.string('name', 100).notNullable();
    // COSE public key, base64url.
    t.text('public_key').notNullable();
    t.bigInteger('sign_count').notNullable().defaultTo(0);
    // JSON array of transports the browser reported (usb, internal, hybrid…).
    t.text('transports').notNullable();
    // singleDevice or multiDevice (synced), and whether it is backed up now (WebAuthn BE and BS flags).
    t.string('device_type', 16).notNullable();
    t.boolean('backed_up').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at');
    t.index(['sub']);
  });

  await knex.schema.createTable('webauthn_challenges', (t) => {
    // The challenge itself (base64url): it is no secret, only single use.
    t.string('challenge', 128).primary();
    // registration or authentication.
    t.string('purpose', 16).notNullable();
    // Registration: the user registering. Authentication: null.
    t.string('sub', 255);
    // The session that asked (SessionRecord.idHash): a registration's, or a pending sign-in's; null for passwordless.
    t.string('session_id', 64);
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
  });

  // JSON arrays of RFC 8176 values; null on rows written before this migration (no amr claim then).
  await knex.schema.alterTable('authorization_codes', (t) => {
    t.text('amr');
  });
  await knex.schema.alterTable('grants', (t) => {
    t.text('amr');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('grants', (t) => {
    t.dropColumn('amr');
  });
  await knex.schema.alterTable('authorization_codes', (t) => {
    t.dropColumn('amr');
  });
  for (const table of ['webauthn_challenges', 'passkeys', 'recovery_codes', 'totp_credentials']) {
    await knex.schema.dropTableIfExists(table);
  }
}
