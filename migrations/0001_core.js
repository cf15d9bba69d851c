// @ts-check
/**
 * Core tables: users, clients, terms (with their version history), upstream
 * identity providers, and settings. Timestamps are epoch milliseconds
 * (BIGINT) so that both engines compare them the same way.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 100).primary();
    t.text('value').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('users', (t) => {
    t.string('sub', 255).primary();
    t.string('managed_by', 16).notNullable();
    t.string('email', 320).notNullable();
    // Lower-cased e-mail: comparisons and uniqueness are case-insensitive.
    t.string('email_normalized', 320).notNullable();
    t.string('role', 16).notNullable().defaultTo('user');
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.boolean('email_verification_required').notNullable().defaultTo(false);
    t.text('password_hash');
    t.boolean('second_factor_required').notNullable().defaultTo(false);
    t.bigInteger('deleted_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['managed_by']);
    t.index(['role']);
  });
  // Only live users hold their e-mail: a soft-deleted account does not block a new one.
  await knex.raw('CREATE UNIQUE INDEX users_email_live_unique ON users (email_normalized) WHERE deleted_at IS NULL');

  await knex.schema.createTable('clients', (t) => {
    t.string('client_id', 255).primary();
    t.string('name', 255).notNullable();
    // "sha256:<base64url>" of a configured secret, or an argon2id PHC string; null for public clients.
    t.text('secret_hash');
    t.text('redirect_uris').notNullable();
    t.text('post_logout_redirect_uris').notNullable();
    t.text('grant_types').notNullable();
    t.string('token_endpoint_auth_method', 32).notNullable();
    t.text('scopes').notNullable();
    t.boolean('require_pkce').notNullable();
    t.boolean('skip_consent').notNullable();
    t.string('managed_by', 16).notNullable().defaultTo('config');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('terms', (t) => {
    t.string('id', 255).primary();
    t.boolean('required').notNullable();
    t.string('consent_mode', 16).notNullable();
    t.string('version', 255).notNullable();
    t.text('content').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('term_versions', (t) => {
    t.string('term_id', 255).notNullable();
    t.string('version', 255).notNullable();
    t.text('content').notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['term_id', 'version']);
  });

  await knex.schema.createTable('identity_providers', (t) => {
    t.string('id', 255).primary();
    t.string('type', 32).notNullable();
    t.boolean('enabled').notNullable();
    t.string('display_name', 255);
    t.text('icon_url');
    t.string('client_id', 255).notNullable();
    // The secret itself stays in the config file; this keyed digest only lets diff notice a change.
    t.string('client_secret_fingerprint', 128).notNullable();
    t.text('authorization_url');
    t.text('token_url');
    t.text('userinfo_url');
    t.text('email_url');
    t.text('scopes').notNullable();
    t.string('email_conflict_strategy', 32).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['identity_providers', 'term_versions', 'terms', 'clients', 'users', 'settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
