// @ts-check
/**
 * Access in git (issue 23): groups, who is in them and why, and who may use
 * each client.
 *
 * A membership names its source: `config` (the file), `database` (the admin
 * API) or `upstream` (asserted by an upstream provider at each sign-in; its
 * provider id is kept so that one provider's sign-in replaces only its own).
 * `provider` is '' rather than NULL for the other sources, so that the
 * primary key holds on both engines. A membership follows its group and its
 * user (ON DELETE CASCADE).
 *
 * Every change to memberships bumps the cache generation (migration 0017):
 * the groups of a user are read from memory on every refresh and bearer
 * request, and a membership removed by one instance must hold on every
 * instance for the next request.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('groups', (t) => {
    t.string('id', 64).primary();
    t.string('name', 255).notNullable();
    t.text('description');
    // JSON array of upstream rules ({ provider, claim, value } or { provider, team }).
    t.text('upstream').notNullable().defaultTo('[]');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('group_members', (t) => {
    t.string('group_id', 64).notNullable().references('id').inTable('groups').onDelete('CASCADE');
    t.string('sub', 255).notNullable().references('sub').inTable('users').onDelete('CASCADE');
    t.string('source', 16).notNullable();
    t.string('provider', 255).notNullable().defaultTo('');
    t.bigInteger('created_at').notNullable();
    t.primary(['group_id', 'sub', 'source', 'provider']);
    // A user's groups, on every sign-in and refresh.
    t.index(['sub']);
  });

  // JSON ClientAccess ({ groups, roles, secondFactor }); NULL: every active user.
  await knex.schema.alterTable('clients', (t) => {
    t.text('access');
  });

  if (knex.client.config.client === 'pg') {
    for (const [name, event] of triggers)
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON group_members FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_generation()`,
      );
    return;
  }
  for (const [name, event] of triggers)
    await knex.raw(
      `CREATE TRIGGER ${name} AFTER ${event} ON group_members FOR EACH ROW BEGIN UPDATE cache_generation SET generation = generation + 1 WHERE id = 1; END`,
    );
}

/** @type {[string, string][]} */
const triggers = [
  ['group_members_added_bump', 'INSERT'],
  ['group_members_changed_bump', 'UPDATE'],
  ['group_members_removed_bump', 'DELETE'],
];

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const [name] of triggers)
    await knex.raw(`DROP TRIGGER IF EXISTS ${name}${knex.client.config.client === 'pg' ? ' ON group_members' : ''}`);
  // SQLite's own DROP COLUMN (3.35+): knex would rebuild the table, and inside the migration's
  // transaction foreign keys cannot be switched off, so the rebuild would cascade to codes and consents.
  if (knex.client.config.client === 'pg')
    await knex.schema.alterTable('clients', (t) => {
      t.dropColumn('access');
    });
  else await knex.raw('ALTER TABLE clients DROP COLUMN access');
  await knex.schema.dropTableIfExists('group_members');
  await knex.schema.dropTableIfExists('groups');
}
