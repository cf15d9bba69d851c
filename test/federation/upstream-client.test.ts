import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, SignJWT } from 'jose';
import { systemClock } from '../../src/clock.js';
import { asObject, fetchUpstreamJson } from '../../src/federation/fetch-upstream.js';
import { createOpenIdMetadataCache } from '../../src/federation/openid-metadata.js';
import { createKeySets, verifyIdToken } from '../../src/federation/verify-id-token.js';
import { authorizationUrl, fetchUpstreamIdentity } from '../../src/federation/upstream-client.js';
import { readEmail, readEmailList, readSubject, readVerified } from '../../src/federation/upstream-identity.js';
import {
  createUpstreamDirectory,
  toUpstreamProvider,
  type UpstreamProvider,
} from '../../src/federation/upstream-provider.js';
import { UpstreamError } from '../../src/federation/federation-error.js';
import type { IdentityProviderRecord } from '../../src/model/index.js';
import { testIdentityProvider } from '../support/config-fixture.js';
import { json, listen } from './support/upstream-http.js';

/** The pieces of an upstream sign-in one by one, each against a small real server on 127.0.0.1. */
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
let server: Awaited<ReturnType<typeof listen>>;
let lastTokenRequest: { headers: Record<string, unknown>; body: string } | null = null;
let userinfo: unknown = {};
let userinfoReads = 0;
/** The token endpoint's id_token, when a test sets one. */
let idToken: string | null = null;

beforeAll(async () => {
  server = await listen(async (req, res, url, body) => {
    const path = url.pathname;
    if (path === '/realms/acme/.well-known/openid-configuration') {
      json(res, 200, {
        issuer: `${server.url}/realms/acme`,
        authorization_endpoint: `${server.url}/realms/acme/protocol/auth`,
        jwks_uri: `${server.url}/keys`,
        userinfo_endpoint: `${server.url}/userinfo`,
      });
      return;
    }
    // A document at the root for another authorization endpoint: not ours.
    if (path === '/.well-known/openid-configuration') {
      json(res, 200, {
        issuer: server.url,
        authorization_endpoint: `${server.url}/authorize`,
        jwks_uri: `${server.url}/keys`,
      });
      return;
    }
    if (path === '/keys') {
      json(res, 200, { keys: [{ ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
      return;
    }
    if (path === '/token') {
      lastTokenRequest = { headers: req.headers, body };
      json(res, 200, { access_token: 'at', token_type: 'Bearer', ...(idToken ? { id_token: idToken } : {}) });
      return;
    }
    if (path === '/userinfo') {
      userinfoReads += 1;
      json(res, 200, userinfo);
      return;
    }
    if (path === '/emails') {
      json(res, 200, [{ email: 'x@corp.example', primary: true, verified: true }]);
      return;
    }
    if (path === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>');
    if (path === '/slow') return void setTimeout(() => json(res, 200, {}), 2000);
    json(res, 404, {});
  });
});
afterAll(() => server.stop());

const provider = (overrides: Partial<UpstreamProvider> = {}): UpstreamProvider => ({
  id: 'corp',
  type: 'generic_oauth',
  displayName: 'Corp',
  iconUrl: null,
  clientId: 'idp client',
  clientSecret: 's3cr:t&+',
  authorizationUrl: `${server.url}/realms/acme/protocol/auth`,
  tokenUrl: `${server.url}/token`,
  userinfoUrl: `${server.url}/userinfo`,
  emailUrl: null,
  scopes: ['email'],
  emailConflictStrategy: 'require_link',
  openId: false,
  ...overrides,
});

describe('fetchUpstreamJson', () => {
  it('names what failed: no answer in time, non-JSON, nobody listening', async () => {
    await expect(fetchUpstreamJson('token endpoint', `${server.url}/slow`, {}, 200)).rejects.toThrow(
      'token endpoint: no answer within 200 ms',
    );
    await expect(fetchUpstreamJson('userinfo endpoint', `${server.url}/html`, {}, 1000)).rejects.toThrow(
      'userinfo endpoint: HTTP 200 with a body that is not JSON',
    );
    await expect(fetchUpstreamJson('discovery', 'http://127.0.0.1:1/x', {}, 1000)).rejects.toBeInstanceOf(
      UpstreamError,
    );
    expect(() => asObject('token endpoint', [1])).toThrow('token endpoint: the answer is not a JSON object');
  });
});

describe('the OpenID metadata of an authorization endpoint', () => {
  it('is the discovery document at a path prefix whose authorization_endpoint and issuer match, fetched once', async () => {
    const cache = createOpenIdMetadataCache({ clock: systemClock, timeoutMs: 1000 });
    const metadata = await cache.metadataFor(`${server.url}/realms/acme/protocol/auth`);
    expect(metadata).toEqual({
      issuer: `${server.url}/realms/acme`,
      jwksUri: `${server.url}/keys`,
      userinfoEndpoint: `${server.url}/userinfo`,
    });
    expect(await cache.metadataFor(`${server.url}/realms/acme/protocol/auth`)).toBe(metadata);
  });

  it('is an UpstreamError naming the places tried when none matches', async () => {
    const cache = createOpenIdMetadataCache({ clock: systemClock, timeoutMs: 1000 });
    await expect(cache.metadataFor(`${server.url}/other/auth`)).rejects.toThrow(
      `discovery: no OpenID configuration for ${server.url}/other/auth (tried ${server.url}/.well-known/openid-configuration, ${server.url}/other/.well-known/openid-configuration)`,
    );
  });
});

describe('verifyIdToken', () => {
  const metadata = () => ({
    issuer: `${server.url}/realms/acme`,
    jwksUri: `${server.url}/keys`,
    userinfoEndpoint: null,
  });
  const sign = (claims: Record<string, unknown>, options: { foreign?: boolean; exp?: number } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ nonce: 'n-1', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer((claims.iss as string | undefined) ?? `${server.url}/realms/acme`)
      .setAudience((claims.aud as string | string[] | undefined) ?? 'idp')
      .setSubject('u-1')
      .setIssuedAt(now)
      .setExpirationTime(options.exp ?? now + 300)
      .sign(options.foreign ? otherKey.privateKey : key.privateKey);
  };
  const verify = async (token: string) =>
    verifyIdToken(token, { metadata: metadata(), clientId: 'idp', nonce: 'n-1', now: Date.now() }, createKeySets(1000));

  it('accepts a token of the issuer for us with our nonce', async () => {
    expect((await verify(await sign({}))).sub).toBe('u-1');
  });

  it.each([
    ['a wrong issuer', { iss: 'https://elsewhere.example' }, {}, 'ID token: claim iss failed'],
    ['a wrong audience', { aud: 'someone-else' }, {}, 'ID token: claim aud failed'],
    ['another nonce', { nonce: 'n-2' }, {}, 'ID token: the nonce is not the one this sign-in sent'],
    ['a foreign signature', {}, { foreign: true }, 'ID token: the signature does not verify'],
    ['an expiry in the past', {}, { exp: Math.floor(Date.now() / 1000) - 3600 }, 'ID token: expired'],
    [
      'several audiences without azp',
      { aud: ['idp', 'other'] },
      {},
      'ID token: several audiences and azp is not our client id',
    ],
  ])('refuses %s', async (_name, claims, options, message) => {
    await expect(verify(await sign(claims, options))).rejects.toThrow(message);
  });

  it('refuses what is not a JWT at all', async () => {
    await expect(verify('not.a.jwt')).rejects.toThrow(/^ID token: /);
  });
});

describe('the identity from userinfo and e-mail endpoints (generic_oauth without openid)', () => {
  const exchange = { code: 'c', redirectUri: 'http://127.0.0.1/cb', codeVerifier: 'v'.repeat(43), nonce: 'n' };
  const deps = {
    clock: systemClock,
    timeoutMs: 1000,
    metadata: createOpenIdMetadataCache({ clock: systemClock, timeoutMs: 1000 }),
    keySets: createKeySets(1000),
  };

  it('authenticates with HTTP Basic, form-encoding the id and secret first (RFC 6749 §2.3.1)', async () => {
    userinfo = { id: 42, email: ' X@Corp.example ', email_verified: true };
    expect(await fetchUpstreamIdentity(provider(), exchange, deps)).toEqual({
      subject: '42',
      email: 'X@Corp.example',
      emailVerified: true,
      assertion: { claims: { id: 42, email: ' X@Corp.example ', email_verified: true }, teams: [] },
    });
    const basic = Buffer.from(String(lastTokenRequest!.headers.authorization).slice(6), 'base64').toString();
    expect(basic).toBe('idp+client:s3cr%3At%26%2B');
    expect(new URLSearchParams(lastTokenRequest!.body).get('client_secret')).toBeNull();
  });

  it('takes the address from email_url when there is one, and needs an id', async () => {
    userinfo = { sub: 'abc', email: 'public@corp.example' };
    expect(await fetchUpstreamIdentity(provider({ emailUrl: `${server.url}/emails` }), exchange, deps)).toEqual({
      subject: 'abc',
      email: 'x@corp.example',
      emailVerified: true,
      assertion: { claims: { sub: 'abc', email: 'public@corp.example' }, teams: [] },
    });
    userinfo = { name: 'nobody' };
    await expect(fetchUpstreamIdentity(provider(), exchange, deps)).rejects.toThrow(
      'userinfo endpoint: no usable account id (sub or id)',
    );
    await expect(fetchUpstreamIdentity(provider({ userinfoUrl: null }), exchange, deps)).rejects.toThrow(
      'no userinfo_url to read the account from',
    );
  });

  it('needs an ID token from an OpenID upstream', async () => {
    await expect(fetchUpstreamIdentity(provider({ openId: true }), exchange, deps)).rejects.toThrow(
      'token endpoint: no id_token from an OpenID upstream',
    );
  });
});

describe('what an OpenID upstream asserts for the group rules', () => {
  const exchange = { code: 'c', redirectUri: 'http://127.0.0.1/cb', codeVerifier: 'v'.repeat(43), nonce: 'n' };
  const deps = {
    clock: systemClock,
    timeoutMs: 1000,
    metadata: createOpenIdMetadataCache({ clock: systemClock, timeoutMs: 1000 }),
    keySets: createKeySets(1000),
  };
  const openId = (overrides: Partial<UpstreamProvider> = {}) =>
    provider({ openId: true, userinfoUrl: null, ...overrides });
  const signed = (claims: Record<string, unknown>, issuer = `${server.url}/realms/acme`) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ nonce: 'n', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience('idp client')
      .setSubject('u-1')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(key.privateKey);
  };
  const fetchWanting = (claims: string[], overrides: Partial<UpstreamProvider> = {}) =>
    fetchUpstreamIdentity(openId(overrides), exchange, deps, { claims, teams: false });
  afterAll(() => {
    idToken = null;
  });

  it('reads userinfo only for a claim the ID token lacks, and the token wins where both speak', async () => {
    idToken = await signed({ email: 'ada@corp.example', email_verified: true, dept: 'ops' });
    userinfo = { sub: 'u-1', email: 'other@corp.example', groups: ['sre', 'x'], dept: 'sales' };
    const reads = userinfoReads;
    expect(await fetchWanting(['dept'])).toMatchObject({
      email: 'ada@corp.example',
      assertion: { claims: { dept: 'ops' }, teams: [] },
    });
    expect(userinfoReads).toBe(reads);

    const identity = await fetchWanting(['dept', 'groups']);
    expect(userinfoReads).toBe(reads + 1);
    expect(identity).toMatchObject({ subject: 'u-1', email: 'ada@corp.example', emailVerified: true });
    expect(identity.assertion.claims).toMatchObject({ groups: ['sre', 'x'], dept: 'ops', email: 'ada@corp.example' });
  });

  it('refuses userinfo about another subject, and goes without it when the upstream has none', async () => {
    idToken = await signed({ email: 'ada@corp.example' });
    userinfo = { sub: 'someone-else', groups: ['sre'] };
    await expect(fetchWanting(['groups'])).rejects.toThrow("userinfo endpoint: sub differs from the ID token's");

    // The discovery document at the root names no userinfo endpoint.
    idToken = await signed({}, server.url);
    const identity = await fetchWanting(['groups'], { authorizationUrl: `${server.url}/authorize` });
    expect(identity).toMatchObject({ subject: 'u-1', email: null, emailVerified: false });
    expect(identity.assertion.claims.groups).toBeUndefined();
  });
});

describe('reading upstream answers', () => {
  it('picks the primary address with its flag, else the first verified one', () => {
    expect(
      readEmailList('e', [
        { email: 'a@x.io', verified: true },
        { email: 'b@x.io', primary: true, verified: false },
      ]),
    ).toEqual({ email: 'b@x.io', emailVerified: false });
    expect(
      readEmailList('e', [null, { email: 'not an address', primary: true }, { email: 'a@x.io', verified: 'true' }]),
    ).toEqual({ email: 'a@x.io', emailVerified: true });
    expect(readEmailList('e', [])).toEqual({ email: null, emailVerified: false });
    expect(() => readEmailList('e-mail endpoint', { emails: [] })).toThrow(
      'e-mail endpoint: the answer is not a list of addresses',
    );
  });

  it('reads subjects, addresses and verified flags strictly', () => {
    expect([readSubject('x', 7), readSubject('x', 'abc')]).toEqual(['7', 'abc']);
    for (const bad of ['', 'x'.repeat(256), 1.5, null]) expect(() => readSubject('x', bad)).toThrow(UpstreamError);
    expect([readEmail('a@b'), readEmail('a b@c'), readEmail(`${'a'.repeat(320)}@b`), readEmail(3)]).toEqual([
      'a@b',
      null,
      null,
      null,
    ]);
    expect([readVerified(true), readVerified('true'), readVerified('false'), readVerified(1)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('the provider a sign-in uses', () => {
  const record = (overrides: Partial<IdentityProviderRecord> = {}): IdentityProviderRecord => ({
    id: 'gh',
    type: 'github',
    enabled: true,
    displayName: null,
    iconUrl: null,
    clientId: 'c',
    clientSecretFingerprint: 'f',
    authorizationUrl: null,
    tokenUrl: null,
    userinfoUrl: null,
    emailUrl: null,
    scopes: ['read:user'],
    emailConflictStrategy: 'require_link',
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  });

  it('fills the built-in endpoints and label, and takes the secret from the config', () => {
    expect(toUpstreamProvider(record(), testIdentityProvider({ id: 'gh', clientSecret: 'from-config' }))).toMatchObject(
      {
        displayName: 'GitHub',
        clientSecret: 'from-config',
        tokenUrl: 'https://github.com/login/oauth/access_token',
        emailUrl: 'https://api.github.com/user/emails',
        openId: false,
      },
    );
    expect(
      toUpstreamProvider(record({ type: 'apple', scopes: ['name', 'email'] }), testIdentityProvider({ id: 'gh' })),
    ).toMatchObject({ displayName: 'Apple', userinfoUrl: null, openId: true });
  });

  it("is unusable when disabled in storage or in this process's config, missing from it, or a generic one without endpoints", () => {
    expect(toUpstreamProvider(record({ enabled: false }), testIdentityProvider({ id: 'gh' }))).toBeNull();
    expect(toUpstreamProvider(record(), testIdentityProvider({ id: 'gh', enabled: false }))).toBeNull();
    expect(toUpstreamProvider(record(), undefined)).toBeNull();
    expect(
      toUpstreamProvider(
        record({ type: 'generic_oauth', tokenUrl: 'https://t.example' }),
        testIdentityProvider({ id: 'gh' }),
      ),
    ).toBeNull();
  });

  it("reads the running config's list on each call, so a reload that replaces its contents takes effect at once", async () => {
    const configured = [testIdentityProvider({ id: 'gh', clientSecret: 'old' })];
    const stored = [record()];
    const directory = createUpstreamDirectory({
      db: {} as never,
      providers: {
        findById: async (_tx, id) => stored.find((r) => r.id === id) ?? null,
        listAll: async () => stored,
        save: async () => {},
        delete: async () => {},
      },
      configured,
    });
    expect((await directory.find('gh'))?.clientSecret).toBe('old');
    configured.splice(0, 1, testIdentityProvider({ id: 'gh', clientSecret: 'new' }));
    expect((await directory.list()).map((p) => p.clientSecret)).toEqual(['new']);
    configured.length = 0;
    expect([await directory.find('gh'), await directory.find('nope')]).toEqual([null, null]);
  });

  it('sends nonce to OpenID upstreams and form_post only to Apple asking for name or email', () => {
    const base = provider({ authorizationUrl: 'https://sso.example/auth?tenant=1' });
    const secrets = { state: 's', codeVerifier: 'v', codeChallenge: 'c', nonce: 'n' };
    const plain = new URL(authorizationUrl(base, 'https://idp.example/cb', secrets));
    expect([
      plain.searchParams.get('tenant'),
      plain.searchParams.get('nonce'),
      plain.searchParams.get('response_mode'),
    ]).toEqual(['1', null, null]);
    expect(
      new URL(authorizationUrl({ ...base, openId: true }, 'https://idp.example/cb', secrets)).searchParams.get('nonce'),
    ).toBe('n');
    expect(
      new URL(
        authorizationUrl({ ...base, type: 'apple', openId: true, scopes: [] }, 'x:/cb', secrets),
      ).searchParams.get('response_mode'),
    ).toBeNull();
  });
});
