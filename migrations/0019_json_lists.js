// @ts-check
/**
 * One encoding for every stored list: a JSON array (src/storage/knex/define-table.ts).
 * The scopes of grants, refresh tokens, authorization codes and consents
 * were space-joined (the RFC 6749 §3.3 wire form) while every other list,
 * amr included, was JSON; they become JSON arrays. A scope token never holds
 * a space, `"` or `\` (RFC 6749 §3.3: %x21 / %x23-5B / %x5D-7E), so quoting
 * each token is the whole conversion, one statement per table on either
 * engine. The amr of codes and grants written before migration 0012 is null
 * (read as no amr): it becomes the empty array.
 *
 * No trigger fires: the cache generation's watch revoked_at and deletions
 * (0017), the refresh-token rotation's successor_hash (0018).
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  for (const table of spaceJoinedScopes) {
    await knex(table).update({
      scopes: knex.raw(`CASE WHEN scopes = '' THEN '[]' ELSE '["' || replace(scopes, ' ', '","') || '"]' END`),
    });
  }
  for (const table of nullableAmr) await knex(table).whereNull('amr').update({ amr: '[]' });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  // An empty amr stays '[]': the code before this migration reads it as it read null, no amr.
  for (const table of spaceJoinedScopes) {
    await knex(table).update({
      scopes: knex.raw(
        `CASE WHEN scopes = '[]' THEN '' ELSE replace(substr(scopes, 3, length(scopes) - 4), '","', ' ') END`,
      ),
    });
  }
}

const spaceJoinedScopes = ['grants', 'refresh_tokens', 'authorization_codes', 'consents'];
const nullableAmr = ['grants', 'authorization_codes'];
