import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexIdentityProviderRepository as providers } from '../../src/storage/knex/identity-providers.js';
import type { IdentityProviderRecord } from '../../src/model/index.js';

function provider(overrides: Partial<IdentityProviderRecord> = {}): IdentityProviderRecord {
  return {
    id: 'corp',
    type: 'generic_oauth',
    enabled: true,
    displayName: 'Corp SSO',
    iconUrl: null,
    clientId: 'idp-client',
    clientSecretFingerprint: 'hmac-sha256:abc',
    authorizationUrl: 'https://sso.example/authorize',
    tokenUrl: 'https://sso.example/token',
    userinfoUrl: null,
    emailUrl: null,
    scopes: ['openid', 'email'],
    emailConflictStrategy: 'require_link',
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

describe.each(databaseKinds)('identity provider repository on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it('saves (insert, then replace keeping created_at), lists and deletes', async () => {
    await providers.save(t.db, provider());
    expect(await providers.findById(t.db, 'corp')).toEqual(provider());
    await providers.save(t.db, provider({ enabled: false, scopes: ['email'], clientSecretFingerprint: 'hmac-sha256:def', createdAt: 5000, updatedAt: 5000 }));
    expect(await providers.findById(t.db, 'corp')).toEqual(
      provider({ enabled: false, scopes: ['email'], clientSecretFingerprint: 'hmac-sha256:def', createdAt: 1000, updatedAt: 5000 }),
    );
    await providers.save(t.db, provider({ id: 'github', type: 'github', displayName: null, authorizationUrl: null, tokenUrl: null }));
    expect((await providers.listAll(t.db)).map((p) => p.id)).toEqual(['corp', 'github']);
    await providers.delete(t.db, 'corp');
    expect(await providers.findById(t.db, 'corp')).toBeNull();
  });

  it('has no column that could hold the secret itself', async () => {
    const columns = Object.keys(await t.db('identity_providers').columnInfo());
    expect(columns).toContain('client_secret_fingerprint');
    expect(columns).not.toContain('client_secret');
  });
});
