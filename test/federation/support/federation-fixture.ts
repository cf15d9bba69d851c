import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import type { Config, RegistrationConfig } from '../../../src/config/types.js';
import type { DatabaseKind } from '../../support/databases.js';
import { testIdentityProvider, testUser } from '../../support/config-fixture.js';
import { CookieJar } from '../../e2e/support/cookie-jar.js';
import type { RunningIdp } from '../../e2e/support/start-idp.js';
import { startOidcUpstream, type OidcUpstream } from './oidc-upstream.js';
import { startGithubUpstream, type GithubUpstream } from './github-upstream.js';
import { appleClientSecret, startAppleUpstream, type AppleUpstream } from './apple-upstream.js';
import { startIdpWithUpstreams } from './start-idp-with-upstreams.js';
import { seedUser } from '../../support/test-app.js';

export const password = 'correct horse battery staple';

export interface FederationFixture {
  idp: RunningIdp;
  oidc: OidcUpstream;
  github: GithubUpstream;
  apple: AppleUpstream;
  users(): Promise<{ sub: string; email: string }[]>;
  connections(): Promise<{ provider_id: string; subject: string; sub: string }[]>;
  /** GET /api/auth/session in this browser. */
  session(jar: CookieJar): Promise<Record<string, any>>;
  signInWithPassword(jar: CookieJar, email: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * idp with one provider of each type, each upstream a real server on
 * 127.0.0.1: oidc-provider behind `corp` and `corp-auto` (generic_oauth with
 * openid) and `google` (endpoints overridden); the GitHub-shaped server
 * behind `github` and `github-auto`; the Apple-shaped server behind `apple`;
 * and `off`, disabled. Users alice (database-managed, verified) and bob
 * (config), both with a password.
 */
export async function startFederationFixture(
  kind: DatabaseKind,
  registration: Partial<RegistrationConfig> = {},
  overrides: Partial<Config> = {},
): Promise<FederationFixture> {
  const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const github = await startGithubUpstream({
    clientId: 'gh-client',
    clientSecret: 'gh-secret-0123456789',
    accounts: [
      {
        id: 101,
        login: 'grace',
        email: null,
        emails: [
          { email: 'g@old.example', primary: false, verified: false },
          { email: 'grace@users.example', primary: true, verified: true },
        ],
      },
      {
        id: 102,
        login: 'alice-gh',
        email: 'alice@example.com',
        emails: [{ email: 'alice@example.com', primary: true, verified: true }],
      },
      {
        id: 103,
        login: 'alice-unverified',
        email: 'alice@example.com',
        emails: [{ email: 'alice@example.com', primary: true, verified: false }],
      },
      { id: 104, login: 'nomail', email: null, emails: [] },
      {
        id: 105,
        login: 'outsider',
        email: null,
        emails: [{ email: 'someone@elsewhere.test', primary: true, verified: true }],
      },
      {
        id: 106,
        login: 'bob-gh',
        email: null,
        emails: [{ email: 'bob.github@users.example', primary: true, verified: true }],
      },
      {
        id: 107,
        login: 'bob-gh-2',
        email: null,
        emails: [{ email: 'bob.second@users.example', primary: true, verified: true }],
      },
      // An attacker's accounts claiming other people's addresses, unverified (test/federation/pre-hijacking.storage.test.ts).
      {
        id: 108,
        login: 'mallory',
        email: 'victim@example.com',
        emails: [{ email: 'victim@example.com', primary: true, verified: false }],
      },
      {
        id: 109,
        login: 'mallory-earlier',
        email: null,
        emails: [{ email: 'earlier@example.com', primary: true, verified: false }],
      },
      {
        id: 110,
        login: 'mallory-earliest',
        email: null,
        emails: [{ email: 'earliest@example.com', primary: true, verified: false }],
      },
    ],
  });
  const apple = await startAppleUpstream({
    servicesId: 'com.example.idp',
    teamId: 'TEAM123456',
    clientKey: appleKey.publicKey,
    accounts: [
      { sub: '000123.apple-ada', email: 'ada@privaterelay.appleid.com', email_verified: 'true' },
      { sub: '000456.apple-hidden', email: null, email_verified: 'false' },
    ],
  });
  const appleSecret = await appleClientSecret({
    privateKey: appleKey.privateKey,
    keyId: 'KEY1234567',
    teamId: 'TEAM123456',
    servicesId: 'com.example.idp',
  });
  let oidc: OidcUpstream | undefined;
  const idp = await startIdpWithUpstreams(kind, async (url) => {
    const callback = (id: string) => `${url}/api/auth/providers/${id}/callback`;
    oidc = await startOidcUpstream({
      clients: [
        {
          client_id: 'idp-corp',
          client_secret: 'corp-secret-0123456789',
          redirect_uris: [callback('corp'), callback('corp-auto')],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        {
          client_id: 'idp-google',
          client_secret: 'google-secret-0123456789',
          redirect_uris: [callback('google')],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      accounts: {
        ada: { email: 'ada@example.com', email_verified: true },
        gia: { email: 'gia@example.com', email_verified: true },
        'alice-corp': { email: 'alice@example.com', email_verified: true },
        'alice-unverified': { email: 'Alice@Example.com', email_verified: false },
        'bob-corp': { email: 'bob@example.com', email_verified: true },
        'root-corp': { email: 'root@example.com', email_verified: true },
        mallory: { email: 'victim@example.com', email_verified: false },
        nomail: {},
      },
    });
    const corp = {
      type: 'generic_oauth' as const,
      displayName: 'Corp SSO',
      authorizationUrl: `${oidc.issuer}/auth`,
      tokenUrl: `${oidc.issuer}/token`,
      scopes: ['openid', 'email'],
    };
    const gh = { clientId: 'gh-client', clientSecret: 'gh-secret-0123456789', ...github.endpoints };
    return {
      users: [testUser({ sub: 'bob' })],
      registration: {
        enabled: true,
        allowedEmailPatterns: ['*@example.com', '*@users.example', '*@privaterelay.appleid.com'],
        emailVerificationRequired: true,
        signupNotice: {},
        ...registration,
      },
      identityProviders: [
        testIdentityProvider({ id: 'github', ...gh }),
        testIdentityProvider({ id: 'github-auto', ...gh, emailConflictStrategy: 'auto_link' }),
        testIdentityProvider({
          id: 'apple',
          type: 'apple',
          clientId: 'com.example.idp',
          clientSecret: appleSecret,
          scopes: ['name', 'email'],
          ...apple.endpoints,
        }),
        testIdentityProvider({ id: 'off', enabled: false, ...gh }),
        testIdentityProvider({ id: 'corp', clientId: 'idp-corp', clientSecret: 'corp-secret-0123456789', ...corp }),
        testIdentityProvider({
          id: 'corp-auto',
          clientId: 'idp-corp',
          clientSecret: 'corp-secret-0123456789',
          ...corp,
          displayName: 'Corp Partners',
          emailConflictStrategy: 'auto_link',
        }),
        testIdentityProvider({
          id: 'google',
          type: 'google',
          clientId: 'idp-google',
          clientSecret: 'google-secret-0123456789',
          scopes: ['openid', 'email', 'profile'],
          authorizationUrl: `${oidc.issuer}/auth`,
          tokenUrl: `${oidc.issuer}/token`,
          userinfoUrl: `${oidc.issuer}/me`,
        }),
      ],
      ...overrides,
    };
  });

  // alice is database-managed, as accounts that auto_link may reach are (docs/http-api.md "Linking rules").
  await seedUser(idp, { sub: 'alice' });

  return {
    idp,
    oidc: oidc!,
    github,
    apple,
    users: () => idp.database.db('users').select('sub', 'email').orderBy('email'),
    connections: () =>
      idp.database.db('connections').select('provider_id', 'subject', 'sub').orderBy(['provider_id', 'subject']),
    async session(jar) {
      return (await jar.fetch(`${idp.url}/api/auth/session`)).json() as Promise<Record<string, any>>;
    },
    async signInWithPassword(jar, email) {
      const response = await jar.fetch(`${idp.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: idp.url },
        body: JSON.stringify({ email, password }),
      });
      expect(response.status).toBe(200);
    },
    async stop() {
      await idp.stop();
      await Promise.all([github.stop(), apple.stop(), oidc?.stop()]);
    },
  };
}
