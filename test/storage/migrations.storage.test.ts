import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { migrateUp, migrationOptions, migrationStatus } from '../../src/storage/knex/migrate.js';
import { clientRecord, userRecord } from './conformance/records.js';

/** The triggers that make session changes bump the cache generation; taken down before the columns they watch. */
const sessionTriggers = '0027_session_cache_generation.js';

describe.each(databaseKinds)('migrations on %s', (kind) => {
  it('run forward from empty, then report nothing pending', async () => {
    const t = await createTestDatabase(kind, { migrate: false });
    try {
      const before = await migrationStatus(t.db);
      expect(before.applied).toEqual([]);
      expect(before.pending.length).toBeGreaterThan(0);
      const applied = await migrateUp(t.db);
      expect(applied).toEqual(before.pending);
      const after = await migrationStatus(t.db);
      expect(after.pending).toEqual([]);
      expect(await migrateUp(t.db)).toEqual([]);
    } finally {
      await t.destroy();
    }
  });

  it('keep e-mails unique among live users only', async () => {
    const t = await createTestDatabase(kind);
    try {
      const row = (sub: string, deletedAt: number | null) => ({
        sub,
        managed_by: 'database',
        email: 'A@x.io',
        email_normalized: 'a@x.io',
        role: 'user',
        email_verified: false,
        email_verification_required: false,
        second_factor_required: false,
        deleted_at: deletedAt,
        created_at: 1,
        updated_at: 1,
      });
      await t.db('users').insert(row('one', 5));
      await t.db('users').insert(row('two', null));
      await expect(t.db('users').insert(row('three', null))).rejects.toThrow();
    } finally {
      await t.destroy();
    }
  });

  it('0019 turns space-joined scopes and a missing amr into JSON arrays, and back', async () => {
    const t = await createTestDatabase(kind);
    try {
      // The rows as the code before 0019 wrote them (the migrations after it, which it does not touch, stay).
      const [, undone] = (await t.db.migrate.down({ ...migrationOptions, name: '0019_json_lists.js' })) as [
        number,
        string[],
      ];
      expect(undone).toEqual(['0019_json_lists.js']);
      await t.db('users').insert({
        sub: 'alice',
        managed_by: 'database',
        email: 'alice@x.io',
        email_normalized: 'alice@x.io',
        role: 'user',
        email_verified: true,
        email_verification_required: false,
        second_factor_required: false,
        created_at: 1,
        updated_at: 1,
      });
      await t.db('clients').insert({
        client_id: 'app',
        name: 'App',
        redirect_uris: '[]',
        post_logout_redirect_uris: '[]',
        grant_types: '["authorization_code"]',
        token_endpoint_auth_method: 'none',
        scopes: '["openid"]',
        require_pkce: true,
        skip_consent: false,
        created_at: 1,
        updated_at: 1,
      });
      const owner = { client_id: 'app', sub: 'alice' };
      await t.db('grants').insert([
        { grant_id: 'g1', ...owner, scopes: 'openid email', auth_time: 1, amr: null, expires_at: 9, created_at: 1 },
        { grant_id: 'g2', ...owner, scopes: '', auth_time: 1, amr: '["pwd","otp"]', expires_at: 9, created_at: 1 },
      ]);
      await t.db('refresh_tokens').insert({
        token_hash: 'r1',
        grant_id: 'g1',
        ...owner,
        scopes: 'openid offline_access',
        expires_at: 9,
        created_at: 1,
      });
      await t.db('authorization_codes').insert({
        code_hash: 'c1',
        grant_id: 'g1',
        ...owner,
        redirect_uri: 'https://app.example/cb',
        scopes: 'openid',
        auth_time: 1,
        amr: null,
        expires_at: 9,
        created_at: 1,
      });
      await t.db('consents').insert({ ...owner, scopes: 'openid profile email', granted_at: 1 });

      expect(await migrateUp(t.db)).toEqual(['0019_json_lists.js']);
      const stored = async () => ({
        grants: await t.db('grants').select('grant_id', 'scopes', 'amr').orderBy('grant_id'),
        refresh: await t.db('refresh_tokens').select('scopes'),
        codes: await t.db('authorization_codes').select('scopes', 'amr'),
        consents: await t.db('consents').select('scopes'),
      });
      expect(await stored()).toEqual({
        grants: [
          { grant_id: 'g1', scopes: '["openid","email"]', amr: '[]' },
          { grant_id: 'g2', scopes: '[]', amr: '["pwd","otp"]' },
        ],
        refresh: [{ scopes: '["openid","offline_access"]' }],
        codes: [{ scopes: '["openid"]', amr: '[]' }],
        consents: [{ scopes: '["openid","profile","email"]' }],
      });
      const { tokens, consents } = t.storage.repositories;
      const found = await tokens.findRefreshTokensWithGrants(t.storage.db, ['r1']);
      expect(found.get('r1')?.token.scopes).toEqual(['openid', 'offline_access']);
      expect(found.get('r1')?.grant).toMatchObject({ scopes: ['openid', 'email'], amr: [] });
      expect((await consents.find(t.storage.db, 'alice', 'app'))?.scopes).toEqual(['openid', 'profile', 'email']);

      // Down restores the space-joined scopes (an empty amr stays '[]', which the older code read as none).
      await t.db.migrate.down({ ...migrationOptions, name: '0019_json_lists.js' });
      expect(await stored()).toEqual({
        grants: [
          { grant_id: 'g1', scopes: 'openid email', amr: '[]' },
          { grant_id: 'g2', scopes: '', amr: '["pwd","otp"]' },
        ],
        refresh: [{ scopes: 'openid offline_access' }],
        codes: [{ scopes: 'openid', amr: '[]' }],
        consents: [{ scopes: 'openid profile email' }],
      });
    } finally {
      await t.destroy();
    }
  });

  it('0020 down takes groups and clients.access away and keeps every row that refers to a client', async () => {
    const t = await createTestDatabase(kind);
    try {
      const { repositories, db } = t.storage;
      await repositories.users.insert(db, userRecord('alice'));
      await repositories.clients.insertMany(db, [
        clientRecord('web', { access: { groups: ['sre'], roles: null, secondFactor: null } }),
      ]);
      await repositories.consents.grant(db, 'alice', 'web', ['openid'], 1);
      // 0027's PostgreSQL trigger watches sessions.second_factor_required, which 0021 takes away.
      await t.db.migrate.down({ ...migrationOptions, name: sessionTriggers });
      await t.db.migrate.down({ ...migrationOptions, name: '0021_session_second_factor_required.js' });
      await t.db.migrate.down({ ...migrationOptions, name: '0020_groups.js' });
      expect(await t.db('clients').columnInfo()).not.toHaveProperty('access');
      expect(await t.db.schema.hasTable('group_members')).toBe(false);
      expect(await t.db('consents').select('sub', 'client_id')).toEqual([{ sub: 'alice', client_id: 'web' }]);
      await migrateUp(t.db);
      expect((await repositories.clients.findById(db, 'web'))?.access).toBeNull();
    } finally {
      await t.destroy();
    }
  });

  it('0025 adds the requested claims to codes and grants, null for the rows before it, and takes them away again', async () => {
    const t = await createTestDatabase(kind);
    try {
      const name = '0025_claims_request.js';
      await t.db.migrate.down({ ...migrationOptions, name });
      await t.storage.repositories.users.insert(t.storage.db, userRecord('alice'));
      await t.storage.repositories.clients.insertMany(t.storage.db, [clientRecord('web')]);
      const grant = { grant_id: 'g', client_id: 'web', sub: 'alice', scopes: '["openid"]', amr: '["pwd"]' };
      await t.db('grants').insert({ ...grant, auth_time: 1, expires_at: 9, created_at: 1 });
      expect(await migrateUp(t.db)).toEqual([name]);
      expect((await t.storage.repositories.tokens.findGrant(t.storage.db, 'g'))?.claims).toBeNull();
      await t.db.migrate.down({ ...migrationOptions, name });
      expect(await t.db('grants').columnInfo()).not.toHaveProperty('claims');
      expect(await t.db('authorization_codes').columnInfo()).not.toHaveProperty('claims');
      // The revocation trigger of the cache generation (0017) survived the column's removal.
      const generation = async () => Number((await t.db('cache_generation').first('generation'))?.generation);
      const before = await generation();
      await t.db('grants').where({ grant_id: 'g' }).update({ revoked_at: 5 });
      expect(await generation()).toBe(before + 1);
      await migrateUp(t.db);
    } finally {
      await t.destroy();
    }
  });

  it('0021 adds the step-up flag to sessions, false for the sessions before it, and takes it away again', async () => {
    const t = await createTestDatabase(kind);
    try {
      const name = '0021_session_second_factor_required.js';
      const later = '0023_session_public_id.js';
      await t.db.migrate.down({ ...migrationOptions, name: sessionTriggers });
      await t.db.migrate.down({ ...migrationOptions, name: later });
      await t.db.migrate.down({ ...migrationOptions, name });
      const session = { sub: 'alice', created_at: 1, last_seen_at: 1, expires_at: 9, auth_time: 1, amr: '["pwd"]' };
      await t.db('sessions').insert({ ...session, id_hash: 'before' });
      expect(await migrateUp(t.db)).toEqual([name, later, sessionTriggers]);
      expect(await t.storage.repositories.sessions.findByIdHash(t.storage.db, 'before')).toMatchObject({
        secondFactorPending: false,
        secondFactorRequired: false,
      });
      await t.db.migrate.down({ ...migrationOptions, name: sessionTriggers });
      await t.db.migrate.down({ ...migrationOptions, name: later });
      await t.db.migrate.down({ ...migrationOptions, name });
      expect(await t.db('sessions').columnInfo()).not.toHaveProperty('second_factor_required');
      expect(await t.db('sessions').select('id_hash')).toEqual([{ id_hash: 'before' }]);
    } finally {
      await t.destroy();
    }
  });

  it('0023 gives every session before it its own public id, adds sid to codes and grants, and takes them away again', async () => {
    const t = await createTestDatabase(kind);
    try {
      const name = '0023_session_public_id.js';
      await t.db.migrate.down({ ...migrationOptions, name });
      const session = { sub: 'alice', created_at: 1, last_seen_at: 1, expires_at: 9, auth_time: 1, amr: '["pwd"]' };
      await t.db('sessions').insert([
        { ...session, id_hash: 'one' },
        { ...session, id_hash: 'two' },
      ]);
      expect(await migrateUp(t.db)).toEqual([name]);
      const { sessions } = t.storage.repositories;
      const one = await sessions.findByIdHash(t.storage.db, 'one');
      const two = await sessions.findByIdHash(t.storage.db, 'two');
      expect(one?.publicId).toMatch(/^[\w-]{22}$/);
      expect(two?.publicId).toMatch(/^[\w-]{22}$/);
      expect(one?.publicId).not.toBe(two?.publicId);
      expect(await t.db('grants').columnInfo()).toHaveProperty('sid');
      expect(await t.db('authorization_codes').columnInfo()).toHaveProperty('sid');
      await t.db.migrate.down({ ...migrationOptions, name });
      expect(await t.db('sessions').columnInfo()).not.toHaveProperty('public_id');
      expect(await t.db('grants').columnInfo()).not.toHaveProperty('sid');
      expect(await t.db('sessions').orderBy('id_hash').pluck('id_hash')).toEqual(['one', 'two']);
    } finally {
      await t.destroy();
    }
  });
});
