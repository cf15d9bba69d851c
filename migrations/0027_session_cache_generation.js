// @ts-check
/**
 * Sessions join the cache generation (migration 0017): forward
 * authentication (docs/forward-auth.md) answers every request of every
 * protected app from a session kept in memory, so ending a session (sign-out,
 * revocation, a user's removal) or changing what it proves (a new id, a
 * pending second factor, its expiry or methods) must bump the number in the
 * same transaction, for every instance to drop the copy before its next
 * answer. The idle touch of last_seen_at (at most once a minute per session)
 * does not bump: the cache re-reads nothing for it.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  if (knex.client.config.client === 'pg') {
    await knex.raw(
      'CREATE TRIGGER sessions_deleted_bump AFTER DELETE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_generation()',
    );
    await knex.raw(
      `CREATE TRIGGER sessions_changed_bump AFTER UPDATE OF ${watched.join(', ')} ON sessions FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_generation()`,
    );
    return;
  }
  await knex.raw(
    'CREATE TRIGGER sessions_deleted_bump AFTER DELETE ON sessions FOR EACH ROW BEGIN UPDATE cache_generation SET generation = generation + 1 WHERE id = 1; END',
  );
  const changed = watched.map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ');
  await knex.raw(
    `CREATE TRIGGER sessions_changed_bump AFTER UPDATE OF ${watched.join(', ')} ON sessions FOR EACH ROW WHEN ${changed} BEGIN UPDATE cache_generation SET generation = generation + 1 WHERE id = 1; END`,
  );
}

/** The columns whose change makes a cached session wrong. */
const watched = ['id_hash', 'expires_at', 'amr', 'second_factor_pending', 'second_factor_required'];

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const name of ['sessions_deleted_bump', 'sessions_changed_bump'])
    await knex.raw(`DROP TRIGGER IF EXISTS ${name}${knex.client.config.client === 'pg' ? ' ON sessions' : ''}`);
}
