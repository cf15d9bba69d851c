// @ts-check
/**
 * Upstream identity providers in use (issue 13): the connections that link
 * a user to an upstream account, and the upstream sign-ins in progress.
 *
 * A connection follows its user (deleting the user deletes it) but not its
 * provider: a provider removed from the config leaves its connections in
 * place, unusable, so that they work again when it returns.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('connections', (t) => {
    t.string('provider_id', 255).notNullable();
    // The upstream's stable account id: OpenID `sub`, GitHub's numeric user id.
    t.string('subject', 255).notNullable();
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    t.string('email', 320);
    t.bigInteger('linked_at').notNullable();
    // One upstream account signs in one user...
    t.primary(['provider_id', 'subject']);
    // ...and a user has at most one account per provider.
    t.unique(['sub', 'provider_id']);
  });

  await knex.schema.createTable('upstream_states', (t) => {
    // base64url SHA-256 of the state parameter sent to the upstream; never stored in clear.
    t.string('state_hash', 64).primary();
    t.string('provider_id', 255).notNullable();
    // base64url SHA-256 of the browser's binding cookie: a state is only good in the browser that started it.
    t.string('binding_hash', 64).notNullable();
    t.string('intent', 8).notNullable();
    t.text('return_to').notNullable();
    t.string('link_sub', 255);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    // Set once, by the one conditional update that redeems the state.
    t.bigInteger('consumed_at');
    t.index(['expires_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('upstream_states');
  await knex.schema.dropTableIfExists('connections');
}
