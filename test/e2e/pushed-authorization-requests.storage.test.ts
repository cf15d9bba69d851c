import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const webSecret = testClient({ clientId: 'web' }).clientSecret!;
const parOnlySecret = testClient({ clientId: 'par-only' }).clientSecret!;

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * Pushed Authorization Requests (RFC 9126) and request objects, driven by
 * openid-client 6 as the relying party against the real server; the
 * browser is a cookie jar that follows redirects one by one
 * (docs/oidc.md, "Pushed authorization requests", "Request objects").
 */
describe.each(databaseKinds)('pushed authorization requests on %s', (kind) => {
  let idp: RunningIdp;
  let redirectUri: string;
  let web: oidc.Configuration;
  let parOnly: oidc.Configuration;
  let other: oidc.Configuration;

  async function discover(clientId: string, secret: string): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(idp.url), clientId, undefined, oidc.ClientSecretBasic(secret), {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test server speaks plain HTTP on 127.0.0.1
      execute: [oidc.allowInsecureRequests],
    });
  }

  beforeAll(async () => {
    redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [redirectUri] }),
        testClient({ clientId: 'other', redirectUris: [redirectUri], skipConsent: true }),
        testClient({ clientId: 'par-only', redirectUris: [redirectUri], requirePushedAuthorizationRequests: true }),
      ],
    });
    web = await discover('web', webSecret);
    parOnly = await discover('par-only', parOnlySecret);
    other = await discover('other', testClient({ clientId: 'other' }).clientSecret!);
  });
  afterAll(() => idp.stop());

  async function newFlow(): Promise<Flow & { params: Record<string, string> }> {
    const verifier = oidc.randomPKCECodeVerifier();
    const flow = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce() };
    return {
      ...flow,
      params: {
        redirect_uri: redirectUri,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      },
    };
  }

  async function signIn(jar: CookieJar): Promise<void> {
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password }),
    });
    expect(response.status).toBe(200);
  }

  /** Follows the provider's redirects, signing in and consenting when asked, until the browser leaves for the client. */
  async function browse(jar: CookieJar, start: URL, seen: URL[] = []): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 12; hop += 1) {
      seen.push(url);
      if (url.origin !== idp.url) return url;
      const returnTo = url.searchParams.get('return_to');
      if (url.pathname === '/login' && returnTo) {
        await signIn(jar);
        url = new URL(returnTo, idp.url);
        continue;
      }
      if (url.pathname === '/consent' && returnTo) {
        const decided = await jar.fetch(`${idp.url}/api/consent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: idp.url },
          body: JSON.stringify({ return_to: returnTo, decision: 'allow' }),
        });
        expect(decided.status).toBe(200);
        url = new URL(((await decided.json()) as { redirect_to: string }).redirect_to, idp.url);
        continue;
      }
      url = locationOf(await jar.fetch(url), url);
    }
    throw new Error('too many redirects');
  }

  async function finish(config: oidc.Configuration, callback: URL, flow: Flow) {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    return tokens.claims();
  }

  /** POST /oauth2/par as a raw form (for what a library refuses to send). */
  async function push(form: URLSearchParams | Record<string, string>, secret = webSecret, clientId = 'web') {
    const response = await fetch(`${idp.url}/oauth2/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
      body: form instanceof URLSearchParams ? form : new URLSearchParams(form),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  }

  async function errorPageOf(url: URL): Promise<{ status: number; text: string }> {
    const response = await new CookieJar().fetch(url);
    return { status: response.status, text: await response.text() };
  }

  describe('pushed authorization requests (RFC 9126)', () => {
    it('lists the PAR endpoint in discovery, and request objects as unsupported', () => {
      const metadata = web.serverMetadata();
      expect(metadata.pushed_authorization_request_endpoint).toBe(`${idp.url}/oauth2/par`);
      expect(metadata.require_pushed_authorization_requests).toBe(false);
      expect(metadata.request_parameter_supported).toBe(false);
      expect(metadata.request_uri_parameter_supported).toBe(false);
    });

    it('signs in through buildAuthorizationUrlWithPAR, across the sign-in and consent pages', async () => {
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(web, flow.params);
      expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
      const seen: URL[] = [];
      const callback = await browse(new CookieJar(), url, seen);
      expect(seen.map((u) => u.pathname)).toEqual(expect.arrayContaining(['/login', '/consent']));
      const claims = await finish(web, callback, flow);
      expect(claims).toMatchObject({ sub: 'alice', aud: 'web', nonce: flow.nonce });
    });

    it('answers 201 with a request_uri good for 60 seconds, and no-store', async () => {
      const flow = await newFlow();
      const response = await push({ ...flow.params, response_type: 'code' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ request_uri: expect.any(String), expires_in: 60 });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('takes client_secret_post at the PAR endpoint, and never stores the secret', async () => {
      const flow = await newFlow();
      const response = await fetch(`${idp.url}/oauth2/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...flow.params,
          response_type: 'code',
          client_id: 'web',
          client_secret: webSecret,
        }),
      });
      expect(response.status).toBe(201);
      const rows = await idp.database.db<{ params: string }>('pushed_authorization_requests').select('params');
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.params).not.toContain(webSecret);
      expect(rows.some((row) => (JSON.parse(row.params) as { state?: string }).state === flow.state)).toBe(true);
    });

    it('refuses a repeated client_id at the PAR endpoint', async () => {
      const form = new URLSearchParams({ ...(await newFlow()).params, response_type: 'code', client_id: 'web' });
      form.append('client_id', 'web');
      expect(await push(form)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });

    it('takes a pushed prompt=login once: after the sign-in it does not ask again', async () => {
      const jar = new CookieJar();
      await signIn(jar);
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(other, { ...flow.params, prompt: 'login' });
      const seen: URL[] = [];
      const callback = await browse(jar, url, seen);
      expect(seen.filter((u) => u.pathname === '/login')).toHaveLength(1);
      expect((await finish(other, callback, flow))?.sub).toBe('alice');
    });

    it('ignores the other query parameters of the authorization request', async () => {
      const jar = new CookieJar();
      await signIn(jar);
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(other, flow.params);
      url.searchParams.set('state', 'forged');
      url.searchParams.set('redirect_uri', 'https://evil.example/cb');
      url.searchParams.set('scope', 'openid profile');
      const callback = await browse(jar, url);
      expect(callback.origin + callback.pathname).toBe(redirectUri);
      expect(callback.searchParams.get('state')).toBe(flow.state);
      expect(await finish(other, callback, flow)).toMatchObject({ sub: 'alice' });
    });

    it('keeps the pushed parameters through the pages: edits of the path back are ignored, a broken seal refused', async () => {
      const flow = await newFlow();
      // prompt=consent: the consent page comes even though an earlier test consented, and is asked once.
      const url = await oidc.buildAuthorizationUrlWithPAR(web, { ...flow.params, prompt: 'consent' });
      const jar = new CookieJar();
      const login = locationOf(await jar.fetch(url), url);
      expect(login.pathname).toBe('/login');
      const back = new URL(login.searchParams.get('return_to')!, idp.url);
      expect(back.searchParams.get('pushed_request')).toEqual(expect.any(String));
      expect(back.searchParams.has('request_uri')).toBe(false);

      // The consent page reads the request back through the seal, with the pushed scopes.
      await signIn(jar);
      back.searchParams.set('scope', 'openid email profile');
      back.searchParams.set('redirect_uri', 'https://evil.example/cb');
      const consent = locationOf(await jar.fetch(back), back);
      expect(consent.pathname).toBe('/consent');
      const prompt = await jar.fetch(
        `${idp.url}/api/consent?return_to=${encodeURIComponent(consent.searchParams.get('return_to')!)}`,
      );
      expect(await prompt.json()).toMatchObject({
        redirect_uri: redirectUri,
        scopes: [{ scope: 'openid' }, { scope: 'email' }],
      });

      const broken = new URL(back);
      broken.searchParams.set('pushed_request', `${back.searchParams.get('pushed_request')!.slice(0, -4)}AAAA`);
      const page = await errorPageOf(broken);
      expect(page.status).toBe(400);
      expect(page.text).toContain('invalid_request_uri');

      const otherClient = new URL(back);
      otherClient.searchParams.set('client_id', 'other');
      expect((await errorPageOf(otherClient)).text).toContain('invalid_request_uri');

      const callback = await browse(jar, consent);
      expect(await finish(web, callback, flow)).toMatchObject({ sub: 'alice', aud: 'web' });
    });

    it('uses a request_uri once: a second use is invalid_request_uri on an error page', async () => {
      const jar = new CookieJar();
      await signIn(jar);
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(other, flow.params);
      await finish(other, await browse(jar, url), flow);
      const again = await jar.fetch(url);
      expect(again.status).toBe(400);
      expect(again.headers.get('location')).toBeNull();
      expect(await again.text()).toContain('invalid_request_uri');
    });

    it('lets exactly one of concurrent uses of a request_uri through', async () => {
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(web, flow.params);
      const answers = await Promise.all(Array.from({ length: 4 }, () => new CookieJar().fetch(url)));
      expect(answers.map((a) => a.status).sort()).toEqual([302, 400, 400, 400]);
    });

    it("refuses another client's request_uri, an unknown one and an expired one", async () => {
      const flow = await newFlow();
      const pushed = await oidc.buildAuthorizationUrlWithPAR(web, flow.params);
      const stolen = new URL(pushed);
      stolen.searchParams.set('client_id', 'other');
      expect(await errorPageOf(stolen)).toMatchObject({
        status: 400,
        text: expect.stringContaining('invalid_request_uri'),
      });
      // The refusal spent nothing: its own client still uses it.
      expect((await new CookieJar().fetch(pushed)).status).toBe(302);

      const unknown = new URL(pushed);
      unknown.searchParams.set('request_uri', 'urn:ietf:params:oauth:request_uri:nope');
      expect((await errorPageOf(unknown)).text).toContain('invalid_request_uri');

      const expiring = await oidc.buildAuthorizationUrlWithPAR(web, (await newFlow()).params);
      await idp.database
        .db('pushed_authorization_requests')
        .update({ expires_at: Date.now() - 1 })
        .whereNull('used_at');
      expect(await errorPageOf(expiring)).toMatchObject({
        status: 400,
        text: expect.stringContaining('invalid_request_uri'),
      });
    });

    it('checks a pushed request as the authorization endpoint would, answering in JSON', async () => {
      const flow = await newFlow();
      const good = { ...flow.params, response_type: 'code' };
      const cases: [Record<string, string>, number, string][] = [
        [{ ...good, redirect_uri: 'https://evil.example/cb' }, 400, 'invalid_request'],
        [{ ...good, response_type: 'token' }, 400, 'unsupported_response_type'],
        [{ ...good, scope: 'email' }, 400, 'invalid_scope'],
        [{ ...good, code_challenge_method: 'plain' }, 400, 'invalid_request'],
        [{ ...good, prompt: 'none login' }, 400, 'invalid_request'],
        [{ ...good, client_id: 'other' }, 400, 'invalid_request'],
        [{ ...good, request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 400, 'invalid_request'],
      ];
      for (const [form, status, error] of cases) {
        const response = await push(form);
        expect({ form, status: response.status, error: response.body.error }).toEqual({ form, status, error });
        expect(response.body.error_description).toEqual(expect.any(String));
      }
      const wrongSecret = await push(good, 'wrong');
      expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(wrongSecret.headers.get('www-authenticate')).toBe('Basic realm="idp", charset="UTF-8"');
    });

    it('refuses a parameter given twice with invalid_request', async () => {
      const form = new URLSearchParams({ ...(await newFlow()).params, response_type: 'code' });
      form.append('scope', 'openid profile');
      const response = await push(form);
      expect(response).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      expect(response.body.error_description).toContain('scope');
    });

    it('refuses a request too long to go through the sign-in pages, and carries a long one that fits', async () => {
      const tooLong = await push({ ...(await newFlow()).params, response_type: 'code', login_hint: 'x'.repeat(4000) });
      expect(tooLong).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_request',
          error_description: 'The pushed parameters are too long to go through the sign-in pages.',
        },
      });
      const flow = await newFlow();
      const longState = `${flow.state}.${'s'.repeat(1500)}`;
      const url = await oidc.buildAuthorizationUrlWithPAR(other, { ...flow.params, state: longState });
      const callback = await browse(new CookieJar(), url);
      expect(callback.searchParams.get('state')).toBe(longState);
      expect(await finish(other, callback, { ...flow, state: longState })).toMatchObject({ sub: 'alice' });
    });

    it('refuses a body over 64 KiB with a JSON error, not a 500', async () => {
      const response = await push({
        ...(await newFlow()).params,
        response_type: 'code',
        login_hint: 'x'.repeat(70_000),
      });
      expect([400, 413]).toContain(response.status);
      expect(response.body.error).toBe('invalid_request');
    });
  });

  describe('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported', () => {
    it('refuses a request object pushed to the PAR endpoint with request_not_supported', async () => {
      const response = await push({
        ...(await newFlow()).params,
        response_type: 'code',
        request: 'eyJhbGciOiJub25lIn0.e30.',
      });
      expect(response).toMatchObject({ status: 400, body: { error: 'request_not_supported' } });
    });

    it('answers a request object at the authorization endpoint with request_not_supported, by redirect', async () => {
      const flow = await newFlow();
      const url = oidc.buildAuthorizationUrl(web, { ...flow.params, request: 'eyJhbGciOiJub25lIn0.e30.' });
      const callback = locationOf(await new CookieJar().fetch(url), url);
      expect(callback.origin + callback.pathname).toBe(redirectUri);
      await expect(finish(web, callback, flow)).rejects.toMatchObject({ error: 'request_not_supported' });
    });
  });

  describe('oidcc-ensure-request-object-with-redirect-uri', () => {
    it('shows the error page instead when the redirect URI is not registered', async () => {
      const flow = await newFlow();
      const url = oidc.buildAuthorizationUrl(web, {
        ...flow.params,
        redirect_uri: 'https://evil.example/cb',
        request: 'eyJhbGciOiJub25lIn0.e30.',
      });
      const page = await errorPageOf(url);
      expect(page.status).toBe(400);
    });
  });

  describe('oidcc-request-uri-unsigned', () => {
    it('answers a request_uri that is not a pushed one with request_uri_not_supported, by redirect', async () => {
      const flow = await newFlow();
      const url = oidc.buildAuthorizationUrl(web, { ...flow.params, request_uri: 'https://rp.example/request.jwt' });
      const callback = locationOf(await new CookieJar().fetch(url), url);
      await expect(finish(web, callback, flow)).rejects.toMatchObject({ error: 'request_uri_not_supported' });
    });
  });

  describe('require_pushed_authorization_requests', () => {
    it('refuses a plain request of a PAR-only client with invalid_request, by redirect', async () => {
      const flow = await newFlow();
      const url = oidc.buildAuthorizationUrl(parOnly, flow.params);
      const callback = locationOf(await new CookieJar().fetch(url), url);
      await expect(finish(parOnly, callback, flow)).rejects.toMatchObject({ error: 'invalid_request' });
    });

    it('signs in a PAR-only client through a pushed request', async () => {
      const flow = await newFlow();
      const url = await oidc.buildAuthorizationUrlWithPAR(parOnly, flow.params);
      expect(await finish(parOnly, await browse(new CookieJar(), url), flow)).toMatchObject({ aud: 'par-only' });
    });
  });
});
