import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { clientRecord as client } from './records.js';

export function describeClients(s: Subject): void {
  let clients: ClientRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { clients },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['clients']));

  it('round-trips every field (lists keep their order)', async () => {
    const record = client('web', {
      secretHash: null,
      tokenEndpointAuthMethod: 'none',
      skipConsent: true,
      requirePkce: false,
      postLogoutRedirectUris: ['https://a.example/'],
    });
    await clients.insertMany(db, [record]);
    expect(await clients.findById(db, 'web')).toEqual(record);
    expect(await clients.findById(db, 'nope')).toBeNull();
  });

  it('stores the ID token algorithm, RS256 for rows written before the column existed', async () => {
    await clients.insertMany(db, [client('modern', { idTokenSignedResponseAlg: 'EdDSA' })]);
    expect((await clients.findById(db, 'modern'))?.idTokenSignedResponseAlg).toBe('EdDSA');
    await clients.update(db, 'modern', { idTokenSignedResponseAlg: 'ES256', updatedAt: 2000 });
    expect((await clients.findById(db, 'modern'))?.idTokenSignedResponseAlg).toBe('ES256');
    // Migration 0008's default: a row inserted without the column, as every row before it was.
    const { id_token_signed_response_alg: _, ...legacy } = (await s.database
      .db('clients')
      .where({ client_id: 'modern' })
      .first()) as Record<string, unknown>;
    await s.database.db('clients').insert({ ...legacy, client_id: 'legacy' });
    expect((await clients.findById(db, 'legacy'))?.idTokenSignedResponseAlg).toBe('RS256');
  });

  it('inserts many in batches, lists them ordered, deletes many', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => client(`c${String(1199 - i).padStart(4, '0')}`));
    await clients.insertMany(db, many);
    const all = await clients.listAll(db);
    expect(all.length).toBe(1200);
    expect(all[0].clientId).toBe('c0000');
    await clients.deleteMany(
      db,
      all.slice(0, 1100).map((c) => c.clientId),
    );
    expect((await clients.listAll(db)).map((c) => c.clientId)).toEqual(all.slice(1100).map((c) => c.clientId));
  });

  it('updates only the given fields', async () => {
    await clients.insertMany(db, [client('web')]);
    await clients.update(db, 'web', { redirectUris: ['https://c.example/cb'], name: 'Web', updatedAt: 2000 });
    expect(await clients.findById(db, 'web')).toEqual(
      client('web', { redirectUris: ['https://c.example/cb'], name: 'Web', updatedAt: 2000 }),
    );
  });

  it('updates and deletes only the clients named', async () => {
    await clients.insertMany(db, [client('web'), client('api'), client('cli')]);
    await clients.update(db, 'web', { scopes: ['openid'], updatedAt: 2000 });
    await clients.deleteMany(db, ['cli', 'never-existed']);
    expect(await clients.listAll(db)).toEqual([client('api'), client('web', { scopes: ['openid'], updatedAt: 2000 })]);
  });
}
