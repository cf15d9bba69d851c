import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { jwtVerify } from 'jose';
import {
  createKeyStore,
  createSigningPool,
  keyEncryptionKey,
  rotateSigningKey,
  signJwt,
  type KeyStore,
} from '../../src/keys/index.js';
import { knexSigningKeyRepository } from '../../src/storage/knex/signing-keys.js';
import { createApp } from '../../src/app.js';
import { applyConfig } from '../../src/gitops/index.js';
import type { SigningAlgorithm } from '../../src/model/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig } from '../support/config-fixture.js';

const secret = 'key-store-test-secret-0123456789abcdef';
const retireAfterMs = 3_600_000 + 30_000;
const pool = createSigningPool();
afterAll(() => pool.close());

describe.each(databaseKinds)('signing keys on %s', (kind) => {
  let database: TestDatabase;
  let now: number;
  const clock = { now: () => now };
  const store = (alg: SigningAlgorithm = 'RS256', withSecret = secret): KeyStore =>
    createKeyStore({
      db: database.storage.db,
      keys: knexSigningKeyRepository,
      kek: keyEncryptionKey(withSecret),
      clock,
      alg,
      refreshIntervalMs: 30_000,
      retireAfterMs,
    });

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    now = 1_700_000_000_000;
  });
  afterEach(() => database.destroy());

  it('creates exactly one key when several instances start at once', async () => {
    const stores = [store(), store(), store()];
    await Promise.all(stores.map((s) => s.init()));
    const kids = new Set(stores.map((s) => s.current().kid));
    expect(kids.size).toBe(1);
    expect(await knexSigningKeyRepository.listAll(database.tx)).toHaveLength(1);
  });

  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    'signs and verifies %s with an RFC 7638 kid, the private key sealed at rest',
    async (alg) => {
      const keys = store(alg);
      await keys.init();
      const token = await signJwt(pool, keys.current(), 'JWT', { sub: 'a' });
      const { protectedHeader: header, payload } = await jwtVerify(token, keys.verificationKey);
      expect(header).toMatchObject({ alg, kid: keys.current().kid });
      expect(payload).toEqual({ sub: 'a' });
      expect(keys.jwks().keys[0]).toMatchObject({ kid: keys.current().kid, alg, use: 'sig' });
      expect(keys.jwks().keys[0]).not.toHaveProperty('d');
      const [row] = await knexSigningKeyRepository.listAll(database.tx);
      expect(row.privateKey).toMatch(/^v1\./);
      await expect(store(alg, 'another-secret-0123456789abcdef-xyz').init()).rejects.toThrow(/cannot be decrypted/);
    },
  );

  it('rotates: the new key signs, the old stays published until its tokens expire', async () => {
    const keys = store();
    await keys.init();
    const old = keys.current();
    const oldToken = await signJwt(pool, old, 'JWT', { sub: 'a' });
    const other = store();
    await other.init();
    await rotateSigningKey(
      { db: database.storage.db, keys: knexSigningKeyRepository, kek: keyEncryptionKey(secret), clock, retireAfterMs },
      'RS256',
    );
    await keys.reload();
    expect(keys.current().kid).not.toBe(old.kid);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([keys.current().kid, old.kid]);
    // Another instance learns the new kid the first time it sees it.
    now += 2000;
    const newToken = await signJwt(pool, keys.current(), 'JWT', { sub: 'b' });
    expect((await jwtVerify(newToken, other.verificationKey)).payload).toEqual({ sub: 'b' });
    expect((await jwtVerify(oldToken, other.verificationKey)).payload).toEqual({ sub: 'a' });
    now += retireAfterMs;
    await keys.reload();
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([keys.current().kid]);
    await expect(jwtVerify(oldToken, keys.verificationKey)).rejects.toThrow(/unknown key/);
  });

  it('holds one signing key per algorithm: RS256 always, rotation per algorithm, a new algorithm on demand', async () => {
    const stores = [store('ES256'), store('ES256'), store('ES256')];
    await Promise.all(stores.map((s) => s.init()));
    expect((await knexSigningKeyRepository.listAll(database.tx)).map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    const [keys, other] = stores;
    expect(keys.algorithms()).toEqual(['RS256', 'ES256']);
    const rs = keys.current('RS256');
    const es = keys.current();
    expect(es.alg).toBe('ES256');

    await rotateSigningKey(
      { db: database.storage.db, keys: knexSigningKeyRepository, kek: keyEncryptionKey(secret), clock, retireAfterMs },
      'ES256',
    );
    await keys.reload();
    expect(keys.current('RS256').kid).toBe(rs.kid);
    expect(keys.current().kid).not.toBe(es.kid);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([keys.current().kid, es.kid, rs.kid]);

    // A client applied while running names EdDSA: instances that ask at once make one key between them.
    const [a, b] = await Promise.all([keys.signingKey('EdDSA'), other.signingKey('EdDSA')]);
    expect(a.kid).toBe(b.kid);
    expect((await knexSigningKeyRepository.listAll(database.tx)).filter((k) => k.alg === 'EdDSA')).toHaveLength(1);
    expect(keys.algorithms()).toEqual(['RS256', 'ES256', 'EdDSA']);
    expect(keys.algorithms()).toBe(keys.algorithms());
    expect(() => store('ES256').current('EdDSA')).toThrow(/no EdDSA signing key/);
  });

  it('verifies with jose only what the key of the kid may have signed', async () => {
    const keys = store('ES256');
    await keys.init();
    const es = await signJwt(pool, keys.current(), 'JWT', { sub: 'a' });
    // The ES256 token's header with the RS256 key's kid: jose's key set finds no ES256 key under that kid.
    const [, payload, signature] = es.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: keys.current('RS256').kid })).toString(
      'base64url',
    );
    await expect(jwtVerify(`${header}.${payload}.${signature}`, keys.verificationKey)).rejects.toThrow(
      /no applicable key/,
    );
    const noKid = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT' })).toString('base64url');
    await expect(jwtVerify(`${noKid}.${payload}.${signature}`, keys.verificationKey)).rejects.toThrow(/names no key/);
    expect((await jwtVerify(es, keys.verificationKey)).payload).toEqual({ sub: 'a' });
  });

  it('rotates to a newly configured algorithm on start', async () => {
    await store('RS256').init();
    const es = store('ES256');
    await es.init();
    expect(es.current().alg).toBe('ES256');
    expect(es.jwks().keys.map((k) => k.alg)).toEqual(['ES256', 'RS256']);
  });
});

describe('two instances on one PostgreSQL database', () => {
  it("sign with the same key and accept each other's tokens", async () => {
    const database = await createTestDatabase('postgres');
    const config = testConfig({
      database: database.config,
      tokens: { ...testConfig().tokens, signingAlg: 'ES256' },
      clients: [testClient({ clientId: 'svc', grantTypes: ['client_credentials'], scopes: ['api'] })],
      scheduler: { ...testConfig().scheduler, enabled: false },
    });
    await applyConfig(database.storage, config);
    const [a, b] = await Promise.all([0, 1].map(() => createApp(config, { logger: pino({ level: 'silent' }) })));
    try {
      const jwksA = (await a.server.inject('/oauth2/jwks')).result as { keys: { kid: string; alg: string }[] };
      const jwksB = (await b.server.inject('/oauth2/jwks')).result as { keys: { kid: string }[] };
      // One key per algorithm, not one per instance: ES256 (tokens.signing_alg) and RS256, which always exists.
      expect(jwksA.keys.map((k) => k.alg)).toEqual(['ES256', 'RS256']);
      expect(jwksB.keys).toEqual(jwksA.keys);
      const auth = `Basic ${Buffer.from(`svc:${testClient({ clientId: 'svc' }).clientSecret}`).toString('base64')}`;
      const form = {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      } as const;
      const token = JSON.parse(
        (await a.server.inject({ ...form, url: '/oauth2/token', payload: 'grant_type=client_credentials' })).payload,
      ).access_token as string;
      const introspected = await b.server.inject({ ...form, url: '/oauth2/introspect', payload: `token=${token}` });
      expect(JSON.parse(introspected.payload)).toMatchObject({ active: true, client_id: 'svc', scope: 'api' });
    } finally {
      await a.stop({ timeoutMs: 500 });
      await b.stop({ timeoutMs: 500 });
      await database.destroy();
    }
  });
});
