// @ts-check
/**
 * clients.id_token_signed_response_alg (OpenID Connect Registration §2):
 * the algorithm of the client's ID tokens. Existing clients get RS256, the
 * default a client that names none has, which is also what relying parties
 * expect when they were not told otherwise.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.alterTable('clients', (t) => {
    t.string('id_token_signed_response_alg', 16).notNullable().defaultTo('RS256');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('clients', (t) => {
    t.dropColumn('id_token_signed_response_alg');
  });
}
