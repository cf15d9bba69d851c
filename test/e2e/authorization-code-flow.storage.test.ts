import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * The whole authorization code flow, driven by openid-client (which checks
 * state, nonce, PKCE, iss and the ID token the strict way) against the real
 * server; the browser is a cookie jar following redirects one by one.
 */
describe.each(databaseKinds)('the authorization code flow with openid-client on %s', (kind) => {
  let idp: RunningIdp;
  let web: RelyingParty;
  let spa: RelyingParty;

  beforeAll(async () => {
    web = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    spa = new RelyingParty(await freePort(), { clientId: 'spa', clientSecret: null, scope: 'openid email' });
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [web.redirectUri] }),
        testClient({
          clientId: 'spa',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [spa.redirectUri],
          skipConsent: true,
        }),
      ],
    });
    await web.discover(idp.url);
    await spa.discover(idp.url);
  });
  afterAll(() => idp.stop());

  async function signIn(jar: CookieJar): Promise<void> {
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password }),
    });
    expect(response.status).toBe(200);
  }

  /** Follows the provider's redirects (answering consent with `decision`) until the browser leaves for the client. */
  async function browse(jar: CookieJar, start: URL, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 10; hop += 1) {
      if (url.origin !== idp.url) return url;
      if (url.pathname === '/consent') {
        const decided = await jar.fetch(`${idp.url}/api/consent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: idp.url },
          body: JSON.stringify({ return_to: url.searchParams.get('return_to'), decision }),
        });
        expect(decided.status).toBe(200);
        url = new URL(((await decided.json()) as { redirect_to: string }).redirect_to, idp.url);
        continue;
      }
      if (url.pathname === '/login') throw new Error('unexpected sign-in page');
      url = locationOf(await jar.fetch(url), url);
    }
    throw new Error('too many redirects');
  }

  it('signs in a confidential client: code → tokens → ID token (nonce, iss, PKCE) → userinfo', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const callback = await browse(jar, await web.authorizationUrl());
    expect(callback.searchParams.get('iss')).toBe(idp.url);
    const result = await web.finish(callback);
    expect(result.claims).toMatchObject({ iss: idp.url, sub: 'alice', aud: 'web' });
    expect(typeof result.claims.auth_time).toBe('number');
    expect(result.userinfo).toMatchObject({ sub: 'alice', email: 'alice@example.com' });
  });

  it('signs in a public client with PKCE and no secret, without consent (skip_consent)', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const result = await spa.finish(await browse(jar, await spa.authorizationUrl()));
    expect(result.claims.sub).toBe('alice');
    expect(result.scope?.split(' ').sort()).toEqual(['email', 'openid']);
  });

  it('sends the browser without a session to /login first', async () => {
    const jar = new CookieJar();
    const login = locationOf(await jar.fetch(await web.authorizationUrl()), idp.url);
    expect(login.pathname).toBe('/login');
    await signIn(jar);
    const result = await web.finish(await browse(jar, new URL(login.searchParams.get('return_to') ?? '', idp.url)));
    expect(result.claims.sub).toBe('alice');
  });

  it('asks for a new sign-in for max_age=0 and then answers, with auth_time checked by the library', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const login = locationOf(await jar.fetch(await web.authorizationUrl({ max_age: '0' })), idp.url);
    expect(login.pathname).toBe('/login');
    await signIn(jar);
    const callback = await browse(jar, new URL(login.searchParams.get('return_to') ?? '', idp.url));
    const result = await web.finish(callback, { maxAge: 60 });
    expect(Date.now() / 1000 - (result.claims.auth_time ?? 0)).toBeLessThan(60);
  });

  it('lets the library see login_required for prompt=none without a session, with a valid iss', async () => {
    const callback = locationOf(await new CookieJar().fetch(await web.authorizationUrl({ prompt: 'none' })), idp.url);
    await expect(web.finish(callback)).rejects.toMatchObject({ error: 'login_required' });
  });

  it('lets the library see access_denied after Deny', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const callback = await browse(jar, await web.authorizationUrl({ scope: 'openid offline_access' }), 'deny');
    await expect(web.finish(callback)).rejects.toBeInstanceOf(oidc.AuthorizationResponseError);
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('asks a public client without PKCE to use it, through the library', async () => {
    const url = oidc.buildAuthorizationUrl(await spa.discover(idp.url), {
      redirect_uri: spa.redirectUri,
      scope: 'openid',
      state: 'no-pkce',
    });
    const callback = locationOf(await fetch(url, { redirect: 'manual' }), idp.url);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({
      error: 'invalid_request',
      state: 'no-pkce',
      iss: idp.url,
    });
  });

  it('shows a redirect URI mismatch as a page, never sending the browser to it', async () => {
    const url = oidc.buildAuthorizationUrl(await web.discover(idp.url), {
      redirect_uri: 'http://127.0.0.1:1/evil',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});
