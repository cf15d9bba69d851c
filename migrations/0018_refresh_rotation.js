// @ts-check
/**
 * A refresh-token rotation in one statement (issue #16). The claim
 * `UPDATE refresh_tokens SET rotated_at, successor_hash, successor_expires_at
 * WHERE … AND rotated_at IS NULL AND revoked_at IS NULL` names the token that
 * replaces the presented one, and this trigger, in the same statement,
 * inserts that successor (same grant, client, user and scopes; created at
 * the rotation) and, when the grant would expire before it, lengthens the
 * grant to a tenth of a refresh lifetime beyond it. A grant's expiry only
 * tells cleanup when its rows may go, and the margin means that most
 * rotations leave the grant's row and index alone (measured: a quarter of
 * the statement's cost). So a group of rotations is one round trip, atomic on its own,
 * with no BEGIN or COMMIT: on SQLite every round trip is a hop to the
 * driver's thread and back, which is what bounded refresh_token.
 *
 * The old row keeps `successor_hash`: the rotation chain can be followed
 * from any token of a family.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  const lengthened = 'NEW.successor_expires_at + (NEW.successor_expires_at - NEW.rotated_at) / 10';
  await knex.schema.alterTable('refresh_tokens', (t) => {
    t.string('successor_hash', 64);
    t.bigInteger('successor_expires_at');
  });
  if (knex.client.config.client === 'pg') {
    await knex.raw(`
      CREATE FUNCTION insert_refresh_successor() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO refresh_tokens (token_hash, grant_id, client_id, sub, scopes, expires_at, created_at)
          VALUES (NEW.successor_hash, NEW.grant_id, NEW.client_id, NEW.sub, NEW.scopes, NEW.successor_expires_at, NEW.rotated_at);
        UPDATE grants SET expires_at = ${lengthened} WHERE grant_id = NEW.grant_id AND expires_at < NEW.successor_expires_at;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER refresh_tokens_successor AFTER UPDATE OF successor_hash ON refresh_tokens
      FOR EACH ROW WHEN (NEW.successor_hash IS NOT NULL AND OLD.successor_hash IS NULL)
      EXECUTE FUNCTION insert_refresh_successor()`);
    return;
  }
  await knex.raw(`
    CREATE TRIGGER refresh_tokens_successor AFTER UPDATE OF successor_hash ON refresh_tokens
    FOR EACH ROW WHEN NEW.successor_hash IS NOT NULL AND OLD.successor_hash IS NULL
    BEGIN
      INSERT INTO refresh_tokens (token_hash, grant_id, client_id, sub, scopes, expires_at, created_at)
        VALUES (NEW.successor_hash, NEW.grant_id, NEW.client_id, NEW.sub, NEW.scopes, NEW.successor_expires_at, NEW.rotated_at);
      UPDATE grants SET expires_at = ${lengthened} WHERE grant_id = NEW.grant_id AND expires_at < NEW.successor_expires_at;
    END`);
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.raw(
    `DROP TRIGGER IF EXISTS refresh_tokens_successor${knex.client.config.client === 'pg' ? ' ON refresh_tokens' : ''}`,
  );
  if (knex.client.config.client === 'pg') await knex.raw('DROP FUNCTION IF EXISTS insert_refresh_successor()');
  await knex.schema.alterTable('refresh_tokens', (t) => {
    t.dropColumn('successor_expires_at');
    t.dropColumn('successor_hash');
  });
}
