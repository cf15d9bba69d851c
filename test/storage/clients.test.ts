import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexClientRepository as clients } from '../../src/storage/knex/clients.js';
import type { ClientRecord } from '../../src/model/index.js';

function client(clientId: string, overrides: Partial<ClientRecord> = {}): ClientRecord {
  return {
    clientId,
    name: `Client ${clientId}`,
    secretHash: 'sha256:abc',
    redirectUris: ['https://a.example/cb', 'https://b.example/cb'],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    scopes: ['openid', 'email'],
    requirePkce: true,
    skipConsent: false,
    idTokenSignedResponseAlg: 'RS256',
    managedBy: 'config',
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

describe.each(databaseKinds)('client repository on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    await t.db('clients').delete();
  });

  it('round-trips every field (lists keep their order)', async () => {
    const record = client('web', { secretHash: null, tokenEndpointAuthMethod: 'none', skipConsent: true, requirePkce: false, postLogoutRedirectUris: ['https://a.example/'] });
    await clients.insertMany(t.db, [record]);
    expect(await clients.findById(t.db, 'web')).toEqual(record);
    expect(await clients.findById(t.db, 'nope')).toBeNull();
  });

  it('stores the ID token algorithm, RS256 for rows written before the column existed', async () => {
    await clients.insertMany(t.db, [client('modern', { idTokenSignedResponseAlg: 'EdDSA' })]);
    expect((await clients.findById(t.db, 'modern'))?.idTokenSignedResponseAlg).toBe('EdDSA');
    await clients.update(t.db, 'modern', { idTokenSignedResponseAlg: 'ES256', updatedAt: 2000 });
    expect((await clients.findById(t.db, 'modern'))?.idTokenSignedResponseAlg).toBe('ES256');
    // Migration 0008's default: a row inserted without the column, as every row before it was.
    const { id_token_signed_response_alg: _, ...legacy } = (await t.db('clients').where({ client_id: 'modern' }).first()) as Record<string, unknown>;
    await t.db('clients').insert({ ...legacy, client_id: 'legacy' });
    expect((await clients.findById(t.db, 'legacy'))?.idTokenSignedResponseAlg).toBe('RS256');
  });

  it('inserts many in batches, lists them ordered, deletes many', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => client(`c${String(1199 - i).padStart(4, '0')}`));
    await clients.insertMany(t.db, many);
    const all = await clients.listAll(t.db);
    expect(all.length).toBe(1200);
    expect(all[0].clientId).toBe('c0000');
    await clients.deleteMany(t.db, all.slice(0, 1100).map((c) => c.clientId));
    expect((await clients.listAll(t.db)).map((c) => c.clientId)).toEqual(all.slice(1100).map((c) => c.clientId));
  });

  it('updates only the given fields', async () => {
    await clients.insertMany(t.db, [client('web')]);
    await clients.update(t.db, 'web', { redirectUris: ['https://c.example/cb'], name: 'Web', updatedAt: 2000 });
    expect(await clients.findById(t.db, 'web')).toEqual(client('web', { redirectUris: ['https://c.example/cb'], name: 'Web', updatedAt: 2000 }));
  });
});
