import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/model/index.js';
import { providerMetadata } from '../../src/oidc/discovery/index.js';
import { readClaimGroups, userClaims } from '../../src/oidc/user-claims.js';

const ada: UserRecord = {
  sub: 'ada',
  managedBy: 'database',
  email: 'ada@example.com',
  role: 'user',
  emailVerified: true,
  emailVerificationRequired: false,
  passwordHash: null,
  secondFactorRequired: false,
  name: 'Ada Lovelace',
  givenName: null,
  familyName: null,
  locale: null,
  deletedAt: null,
  createdAt: 0,
  updatedAt: 1_700_000_000_500,
};

/** The user's claims by scope (src/oidc/user-claims.ts), the same for the ID token and userinfo. */
describe('userClaims', () => {
  it.each([
    [['openid'], null, {}],
    [['openid', 'email'], null, { email: 'ada@example.com', email_verified: true }],
    [['openid', 'profile'], null, { name: 'Ada Lovelace', updated_at: 1_700_000_000 }],
    [['openid', 'groups'], ['dev', 'sre'], { groups: ['dev', 'sre'] }],
    [['openid', 'groups'], [], { groups: [] }],
  ] as const)('scopes %j with groups %j → %j', (scopes, groups, expected) => {
    expect(userClaims(ada, scopes, groups)).toEqual(expected);
  });
});

describe('readClaimGroups', () => {
  const reads = () => {
    const calls: [string, number | undefined][] = [];
    return {
      calls,
      groupsOf(sub: string, generation?: number) {
        calls.push([sub, generation]);
        return Promise.resolve(['dev', 'sre']);
      },
    };
  };

  it('reads the groups, with the generation the request already has, only when the scopes hold groups', async () => {
    const cache = reads();
    expect(await readClaimGroups(cache, 'ada', ['openid', 'email'])).toBeNull();
    expect(cache.calls).toEqual([]);
    expect(await readClaimGroups(cache, 'ada', ['openid', 'groups'], 7)).toEqual(['dev', 'sre']);
    expect(await readClaimGroups(cache, 'ada', ['groups'])).toEqual(['dev', 'sre']);
    expect(cache.calls).toEqual([
      ['ada', 7],
      ['ada', undefined],
    ]);
  });
});

describe('discovery', () => {
  it('lists the groups scope and the groups claim', () => {
    const metadata = providerMetadata('https://id.example.com', ['RS256']);
    expect(metadata.scopes_supported).toEqual(['openid', 'profile', 'email', 'offline_access', 'groups']);
    expect(metadata.claims_supported).toContain('groups');
  });
});
