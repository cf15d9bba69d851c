import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexAuthorizationCodeRepository as codes } from '../../src/storage/knex/authorization-codes.js';
import { knexConsentRepository as consents } from '../../src/storage/knex/consents.js';
import type { AuthorizationCodeRecord } from '../../src/model/index.js';

async function seed(t: TestDatabase): Promise<void> {
  await t.db('users').insert({
    sub: 'alice', managed_by: 'config', email: 'alice@example.com', email_normalized: 'alice@example.com',
    role: 'user', email_verified: true, email_verification_required: false, second_factor_required: false,
    created_at: 1, updated_at: 1,
  });
  await t.db('clients').insert({
    client_id: 'app', name: 'App', secret_hash: null, redirect_uris: '[]', post_logout_redirect_uris: '[]',
    grant_types: '[]', token_endpoint_auth_method: 'none', scopes: '[]', require_pkce: true, skip_consent: false,
    created_at: 1, updated_at: 1,
  });
}

function code(codeHash: string, overrides: Partial<AuthorizationCodeRecord> = {}): AuthorizationCodeRecord {
  return {
    codeHash, grantId: `grant-${codeHash}`, clientId: 'app', sub: 'alice', redirectUri: 'http://127.0.0.1/cb',
    scopes: ['openid', 'email'], nonce: 'n-1', codeChallenge: 'c'.repeat(43), codeChallengeMethod: 'S256',
    authTime: 1_000, sessionId: 'session-hash', expiresAt: 61_000, consumedAt: null, createdAt: 1_000,
    ...overrides,
  };
}

describe.each(databaseKinds)('authorization codes and consents on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await seed(t);
  });
  afterAll(() => t.destroy());

  it('stores a code and gives it back, field for field, on first consumption', async () => {
    await codes.insert(t.db, code('h1'));
    const first = await codes.consume(t.db, 'h1', 5_000);
    expect(first).toEqual({ record: code('h1', { consumedAt: 5_000 }), alreadyConsumed: false });
    const replay = await codes.consume(t.db, 'h1', 6_000);
    expect(replay).toEqual({ record: code('h1', { consumedAt: 5_000 }), alreadyConsumed: true });
  });

  it('answers null for an unknown code', async () => {
    expect(await codes.consume(t.db, 'nope', 1)).toBeNull();
  });

  it('lets exactly one of many concurrent redemptions win', async () => {
    await codes.insert(t.db, code('race', { nonce: null, codeChallenge: null, codeChallengeMethod: null, sessionId: null }));
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => codes.consume(t.db, 'race', 10_000 + i)));
    expect(results.filter((r) => r?.alreadyConsumed === false)).toHaveLength(1);
    expect(results.every((r) => r?.record.codeChallenge === null)).toBe(true);
  });

  it('deletes expired codes only', async () => {
    await codes.insert(t.db, code('old', { expiresAt: 100 }));
    await codes.insert(t.db, code('fresh', { expiresAt: 10_000_000 }));
    expect(await codes.deleteExpired(t.db, 200, 100)).toBe(1);
    expect(await codes.consume(t.db, 'old', 300)).toBeNull();
    expect(await codes.consume(t.db, 'fresh', 300)).not.toBeNull();
  });

  it('merges granted scopes and revokes a consent', async () => {
    expect(await consents.find(t.db, 'alice', 'app')).toBeNull();
    await consents.grant(t.db, 'alice', 'app', ['openid', 'email'], 10);
    const merged = await consents.grant(t.db, 'alice', 'app', ['email', 'profile'], 20);
    expect(merged).toEqual({ sub: 'alice', clientId: 'app', scopes: ['openid', 'email', 'profile'], grantedAt: 20 });
    expect(await consents.find(t.db, 'alice', 'app')).toEqual(merged);
    expect(await consents.listBySub(t.db, 'alice')).toEqual([merged]);
    expect(await consents.revoke(t.db, 'alice', 'app')).toBe(true);
    expect(await consents.revoke(t.db, 'alice', 'app')).toBe(false);
  });
});
