import { beforeAll, expect, it } from 'vitest';
import type { IdentityProviderRepository, Tx } from '../../../src/storage/repositories.js';
import type { IdentityProviderRecord } from '../../../src/model/index.js';
import type { Subject } from './subject.js';

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

export function describeIdentityProviders(s: Subject): void {
  let providers: IdentityProviderRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { identityProviders: providers },
    } = s);
  });

  it('saves (insert, then replace keeping created_at), lists and deletes', async () => {
    await providers.save(db, provider());
    expect(await providers.findById(db, 'corp')).toEqual(provider());
    await providers.save(
      db,
      provider({
        enabled: false,
        scopes: ['email'],
        clientSecretFingerprint: 'hmac-sha256:def',
        createdAt: 5000,
        updatedAt: 5000,
      }),
    );
    expect(await providers.findById(db, 'corp')).toEqual(
      provider({
        enabled: false,
        scopes: ['email'],
        clientSecretFingerprint: 'hmac-sha256:def',
        createdAt: 1000,
        updatedAt: 5000,
      }),
    );
    await providers.save(
      db,
      provider({ id: 'github', type: 'github', displayName: null, authorizationUrl: null, tokenUrl: null }),
    );
    expect((await providers.listAll(db)).map((p) => p.id)).toEqual(['corp', 'github']);
    await providers.delete(db, 'corp');
    expect(await providers.findById(db, 'corp')).toBeNull();
  });

  // A schema check: the interface has no way to show which columns exist.
  it('has no column that could hold the secret itself', async () => {
    const columns = Object.keys(await s.database.db('identity_providers').columnInfo());
    expect(columns).toContain('client_secret_fingerprint');
    expect(columns).not.toContain('client_secret');
  });
}
