// @ts-check
/**
 * Browser sessions and login rate-limit counters. Both live in the database
 * so that several instances behind a load balancer share them (docs/architecture.md, "Several instances").
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('sessions', (t) => {
    // SHA-256 (base64url) of the random id carried by the cookie: a leaked
    // database does not hand out live cookies.
    t.string('id_hash', 64).primary();
    t.string('sub', 255).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('auth_time').notNullable();
    // JSON array of RFC 8176 method references, e.g. ["pwd"] or ["pwd","otp"].
    t.text('amr').notNullable();
    // The password was right but a required second factor is still missing.
    t.boolean('second_factor_pending').notNullable().defaultTo(false);
    t.index(['sub']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('login_rate_limits', (t) => {
    // "account:<lower-cased e-mail>" or "address:<client address>".
    t.string('key', 400).primary();
    t.integer('failures').notNullable();
    t.bigInteger('window_started_at').notNullable();
    t.index(['window_started_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('login_rate_limits');
  await knex.schema.dropTableIfExists('sessions');
}
