// @ts-check
/**
 * Self-service accounts: the single-use tokens of the links idp mails
 * (e-mail verification, password reset) and the history of the terms a
 * user accepted. Both follow their user: erasing the user erases them.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('link_tokens', (t) => {
    // base64url SHA-256 of the 32 random bytes in the link: a leaked database hands out no usable link.
    t.string('token_hash', 64).primary();
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    // email_verification | password_reset: a token redeems only for its own purpose.
    t.string('purpose', 32).notNullable();
    // The address the link was mailed to: a token stops working when the user's e-mail changes.
    t.string('email', 320).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    // Set once, by the one conditional update that redeems the token.
    t.bigInteger('used_at');
    t.index(['sub', 'purpose']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('term_acceptances', (t) => {
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    // No foreign key to terms: a term removed by apply keeps its history (term_versions), and so do acceptances.
    t.string('term_id', 255).notNullable();
    t.string('version', 255).notNullable();
    t.bigInteger('accepted_at').notNullable();
    // One row per accepted version, never overwritten: the first acceptance of a version stands.
    t.primary(['sub', 'term_id', 'version']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('term_acceptances');
  await knex.schema.dropTableIfExists('link_tokens');
}
