// @ts-check
/**
 * A session that must get a second factor (issue 23): a client whose access
 * says `second_factor: required` met a session without one, and the user
 * started the step-up (POST /api/auth/step-up). The full session became a
 * pending one, and this flag makes that pending session complete only with
 * a factor: the user's own, or the enrolment of one when they have none,
 * whatever auth.second_factor says of them.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.alterTable('sessions', (t) => {
    t.boolean('second_factor_required').notNullable().defaultTo(false);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('second_factor_required');
  });
}
