import type { ClientConfig, Config, IdentityProviderConfig, TermConfig, UserConfig } from '../../src/config/types.js';

/**
 * A complete, valid runtime Config with the documented defaults, for tests
 * that need a Config without going through the loader. Top-level groups in
 * `overrides` replace the defaults whole: `testConfig({ users: [testUser()] })`.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    file: null,
    server: { baseUrl: 'http://localhost:8080', baseUrlDerived: false, host: '0.0.0.0', port: 8080, trustProxy: false },
    tokens: {
      accessTokenTtlSeconds: 3600,
      idTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 2_592_000,
      authorizationCodeTtlSeconds: 60,
      signingAlg: 'RS256',
    },
    i18n: { defaultLocale: 'en', locales: ['en'] },
    branding: { name: 'idp', logoUrl: null, primaryColor: null },
    registration: { enabled: false, allowedEmailPatterns: [], emailVerificationRequired: true, signupNotice: {} },
    accountDeletion: { enabled: false, gracePeriodDays: 30 },
    logging: { level: 'silent', format: 'json' },
    security: {
      secret: 'test-secret-test-secret-test-secret-0123',
      sessionTtlSeconds: 86_400,
      sessionIdleTtlSeconds: 3600,
      loginRateLimit: { maxAttempts: 5, addressMaxAttempts: 50, windowSeconds: 900 },
    },
    database: { client: 'sqlite', filename: ':memory:', url: null, pool: { min: 1, max: 1 } },
    auth: { passwordMinLength: 8, secondFactor: 'optional', totpIssuer: null, passkeysEnabled: true },
    email: {
      enabled: false,
      from: 'idp@localhost',
      smtp: { host: '127.0.0.1', port: 25, secure: false, user: null, password: null },
    },
    identityProviders: [],
    clients: [],
    users: [],
    groups: [],
    metrics: { enabled: false, host: '127.0.0.1', port: 9464 },
    forwardAuth: { cookieDomain: null, apps: [] },
    terms: [],
    scheduler: {
      enabled: true,
      mode: 'croner',
      cleanupCron: '0 2 * * *',
      pollIntervalMs: 5000,
      lockTtlMs: 60_000,
      backgroundRetryDelayMs: 1000,
      backgroundMaxAttempts: 3,
      backgroundRetentionMs: 604_800_000,
      instanceId: 'test-instance',
    },
    cleanup: { enabled: true, batchSize: 1000, eventsRetentionDays: 90 },
    openapi: {
      enabled: true,
      title: 'idp API',
      description: 'OpenID Connect Provider API',
      uiTitle: 'idp API Reference',
    },
    frontend: { enabled: true, mode: 'static', path: '', htmlVariables: {} },
    ...overrides,
  };
}

/** A precomputed argon2id PHC string (of "correct horse battery staple"), so fixtures never pay for hashing. */
export const testPasswordHash =
  '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';

export function testUser(overrides: Partial<UserConfig> = {}): UserConfig {
  const sub = overrides.sub ?? 'alice';
  return {
    sub,
    email: `${sub}@example.com`,
    role: 'user',
    emailVerified: true,
    passwordHash: testPasswordHash,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    ...overrides,
  };
}

export function testClient(overrides: Partial<ClientConfig> = {}): ClientConfig {
  const clientId = overrides.clientId ?? 'web';
  return {
    clientId,
    name: `Client ${clientId}`,
    clientSecret: `secret-of-${clientId}-0123456789abcdef`,
    clientSecretHash: null,
    access: null,
    redirectUris: [`https://${clientId}.example.com/callback`],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    tokenEndpointAuthMethodPinned: false,
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    requirePushedAuthorizationRequests: false,
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    requirePkce: true,
    skipConsent: false,
    idTokenSignedResponseAlg: 'RS256',
    ...overrides,
  };
}

export function testTerm(overrides: Partial<TermConfig> = {}): TermConfig {
  return {
    id: 'tos',
    required: true,
    consentMode: 'explicit',
    version: '1',
    content: { en: { title: 'Terms of Service', type: 'link', content: 'https://example.com/tos' } },
    ...overrides,
  };
}

export function testIdentityProvider(overrides: Partial<IdentityProviderConfig> = {}): IdentityProviderConfig {
  return {
    id: 'github',
    type: 'github',
    enabled: true,
    displayName: null,
    iconUrl: null,
    clientId: 'gh-client',
    clientSecret: 'gh-secret-0123456789',
    authorizationUrl: null,
    tokenUrl: null,
    userinfoUrl: null,
    emailUrl: null,
    scopes: ['read:user', 'user:email'],
    emailConflictStrategy: 'require_link',
    ...overrides,
  };
}
