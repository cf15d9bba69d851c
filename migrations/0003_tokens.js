// @ts-check
/**
 * The token side of the provider: signing keys (private halves encrypted
 * with a key derived from security.secret), grants (what one authorization
 * issued: revoking a grant revokes its access and refresh tokens), refresh
 * tokens (SHA-256 digests only, rotated on use) and revoked access-token ids
 * (RFC 7009 revocation of a JWT access token before it expires).
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('signing_keys', (t) => {
    // RFC 7638 JWK thumbprint of the public key.
    t.string('kid', 64).primary();
    // 1, 2, 3…: the highest generation signs. Unique, so that instances racing
    // to create the first key (or to rotate) cannot both win.
    t.integer('generation').notNullable().unique();
    t.string('alg', 16).notNullable();
    t.text('public_jwk').notNullable();
    // AES-256-GCM of the PKCS#8 DER private key: "v1.<iv>.<tag>.<ciphertext>" (base64url).
    t.text('private_key').notNullable();
    t.bigInteger('created_at').notNullable();
    // Set when a newer key takes over: the key stays in the JWKS until then.
    t.bigInteger('retire_at');
  });

  await knex.schema.createTable('grants', (t) => {
    // Equals the grant_id of the authorization code it came from.
    t.string('grant_id', 64).primary();
    t.string('client_id', 255).notNullable();
    t.string('sub', 255).notNullable();
    t.text('scopes').notNullable();
    t.bigInteger('auth_time').notNullable();
    t.string('session_id', 255);
    t.bigInteger('revoked_at');
    // Latest expiry of anything issued under it (cleanup may drop it afterwards).
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['sub']);
    t.index(['client_id']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    // base64url SHA-256 of the opaque token.
    t.string('token_hash', 64).primary();
    // The rotation family is the grant: reuse of a rotated token revokes the grant.
    t.string('grant_id', 64).notNullable().references('grant_id').inTable('grants').onDelete('CASCADE');
    t.string('client_id', 255).notNullable();
    t.string('sub', 255).notNullable();
    t.text('scopes').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('rotated_at');
    t.bigInteger('revoked_at');
    t.bigInteger('created_at').notNullable();
    t.index(['grant_id']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('revoked_access_tokens', (t) => {
    t.string('jti', 64).primary();
    // The token's own exp: after it the row means nothing and may be deleted.
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['revoked_access_tokens', 'refresh_tokens', 'grants', 'signing_keys']) {
    await knex.schema.dropTableIfExists(table);
  }
}
