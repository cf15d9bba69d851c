// @ts-check
/**
 * The profile of a user (docs/http-api.md, "Your own account": name, given_name, family_name,
 * locale; OIDC Core §5.1 claims of the profile scope), the subs of erased
 * users, and authorization codes indexed by user. The profile columns
 * are nullable: a user without a name has none, and the claims are left out.
 *
 * Cleanup erases a user soft-deleted longer than
 * account_deletion.grace_period_days by deleting the row (the rows that
 * reference it go with it, ON DELETE CASCADE); erased_users keeps the bare
 * sub, so that no later user is ever given it (docs/http-api.md "Erasure").
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.alterTable('users', (t) => {
    t.string('name', 255);
    t.string('given_name', 255);
    t.string('family_name', 255);
    // A BCP 47 tag of i18n.locales.
    t.string('locale', 64);
  });

  await knex.schema.createTable('erased_users', (t) => {
    t.string('sub', 255).primary();
    t.bigInteger('erased_at').notNullable();
  });

  // Erasing a user cascades to its codes, and a password change deletes the
  // codes of its other sessions: both find them by sub, not by a scan.
  await knex.schema.alterTable('authorization_codes', (t) => {
    t.index(['sub']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('authorization_codes', (t) => {
    t.dropIndex(['sub']);
  });
  await knex.schema.dropTableIfExists('erased_users');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('locale');
    t.dropColumn('family_name');
    t.dropColumn('given_name');
    t.dropColumn('name');
  });
}
