// @ts-check
import { randomBytes } from 'node:crypto';

/**
 * Back-Channel Logout (OpenID Back-Channel Logout 1.0, issue 24): a session
 * gets a public id, the `sid` of its ID tokens and Logout Tokens. It is not
 * the id_hash, which is the cookie's lookup key and changes on every renewal;
 * public_id stays the same for the life of the session. Codes and grants keep
 * the sid they were issued under, so that the ID token of a refresh carries
 * it even after the session ended (an offline grant lives on). A sign-out
 * finds the grants of a session by session_id, hence its index.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.alterTable('sessions', (t) => {
    t.string('public_id');
  });
  const rows = /** @type {{ id_hash: string }[]} */ (await knex('sessions').whereNull('public_id').select('id_hash'));
  for (const row of rows)
    await knex('sessions')
      .where({ id_hash: row.id_hash })
      .update({ public_id: randomBytes(16).toString('base64url') });
  await knex.schema.alterTable('sessions', (t) => {
    t.unique(['public_id'], { indexName: 'sessions_public_id_unique' });
  });
  await knex.schema.alterTable('authorization_codes', (t) => {
    t.string('sid');
  });
  await knex.schema.alterTable('grants', (t) => {
    t.string('sid');
    t.index(['session_id'], 'grants_session_id_index');
  });
}

/**
 * SQLite's own DROP COLUMN (3.35+), as in 0022: knex would rebuild the
 * tables, and the triggers of migrations 0017 and 0018 name grants.
 *
 * @param {import('knex').Knex} knex
 */
export async function down(knex) {
  await knex.schema.alterTable('grants', (t) => {
    t.dropIndex(['session_id'], 'grants_session_id_index');
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.dropUnique(['public_id'], 'sessions_public_id_unique');
  });
  for (const [table, column] of [
    ['grants', 'sid'],
    ['authorization_codes', 'sid'],
    ['sessions', 'public_id'],
  ])
    await knex.raw('ALTER TABLE ?? DROP COLUMN ??', [table, column]);
}
