import type { ClientRecord, GrantRecord, RefreshTokenRecord, UserRecord } from '../../../src/model/index.js';

/** Records that several blocks store: users and clients (codes and consents refer to them), grants and refresh tokens. */
export function userRecord(sub: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    sub,
    managedBy: 'database',
    email: `${sub}@example.com`,
    role: 'user',
    emailVerified: false,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function clientRecord(clientId: string, overrides: Partial<ClientRecord> = {}): ClientRecord {
  return {
    clientId,
    name: `Client ${clientId}`,
    secretHash: 'sha256:abc',
    redirectUris: ['https://a.example/cb', 'https://b.example/cb'],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    tokenEndpointAuthMethodPinned: true,
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    requirePushedAuthorizationRequests: false,
    scopes: ['openid', 'email'],
    requirePkce: true,
    skipConsent: false,
    idTokenSignedResponseAlg: 'RS256',
    access: null,
    managedBy: 'config',
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function grantRecord(grantId: string, overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    grantId,
    clientId: 'app',
    sub: 'alice',
    scopes: ['openid', 'offline_access'],
    authTime: 900,
    amr: ['hwk'],
    sessionId: 'session-hash',
    sid: 'session-public-id',
    claims: null,
    revokedAt: null,
    expiresAt: 10_000,
    createdAt: 1000,
    ...overrides,
  };
}

export function refreshTokenRecord(
  tokenHash: string,
  of: GrantRecord,
  overrides: Partial<RefreshTokenRecord> = {},
): RefreshTokenRecord {
  return {
    tokenHash,
    grantId: of.grantId,
    clientId: of.clientId,
    sub: of.sub,
    scopes: of.scopes,
    expiresAt: 20_000,
    rotatedAt: null,
    revokedAt: null,
    createdAt: 1000,
    ...overrides,
  };
}
