// @ts-check
/**
 * The `claims` request parameter (OIDC Core §5.5): the user claims an
 * authorization request asked for beyond its scopes, as JSON
 * (`{"idToken": [...], "userinfo": [...]}`), carried from the code to its
 * grant so that userinfo and the ID tokens of refreshes release them too.
 * Null on the rows before it, as on requests without the parameter.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  for (const table of tables) {
    await knex.schema.alterTable(table, (t) => {
      t.text('claims');
    });
  }
}

/**
 * Plain DROP COLUMN on both engines (SQLite 3.35+): knex would rebuild a
 * SQLite table to drop a column, losing the cache-generation triggers on
 * grants (0017).
 *
 * @param {import('knex').Knex} knex
 */
export async function down(knex) {
  for (const table of tables) await knex.raw('ALTER TABLE ?? DROP COLUMN claims', [table]);
}

const tables = ['authorization_codes', 'grants'];
