import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * A native app (RFC 8252 §7.3): it registers http://127.0.0.1/callback
 * without a port, listens on whatever port the system gives it, and signs
 * in with openid-client 6 as a public client with PKCE (docs/oidc.md,
 * "Loopback redirect URIs of native apps").
 */
describe.each(databaseKinds)('a native app on a loopback port on %s', (kind) => {
  let idp: RunningIdp;
  let app: http.Server;
  let port: number;
  let config: oidc.Configuration;
  const received: URL[] = [];

  beforeAll(async () => {
    app = http.createServer((req, res) => {
      received.push(new URL(req.url ?? '/', `http://127.0.0.1:${port}`));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('You may close this window.');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    port = (app.address() as AddressInfo).port;
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'cli',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: ['http://127.0.0.1/callback', 'http://[::1]/callback'],
          skipConsent: true,
        }),
      ],
    });
    config = await oidc.discovery(new URL(idp.url), 'cli', undefined, oidc.None(), {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test servers speak plain HTTP on 127.0.0.1
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(async () => {
    await idp.stop();
    await new Promise<void>((resolve) => app.close(() => resolve()));
  });

  async function signedInJar(): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  async function start(redirectUri: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url, verifier, state };
  }

  it('signs in on the port the app listens on, and redeems the code with that redirect_uri', async () => {
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const flow = await start(redirectUri);
    const jar = await signedInJar();
    const callback = locationOf(await jar.fetch(flow.url), flow.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    // The browser lands on the app's own server.
    await fetch(callback);
    expect(received.at(-1)?.searchParams.get('state')).toBe(flow.state);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      idTokenExpected: true,
    });
    expect(tokens.claims()?.sub).toBe('alice');
  });

  it('refuses at the token endpoint a redirect_uri on another port than the authorization request', async () => {
    const flow = await start(`http://127.0.0.1:${port}/callback`);
    const callback = locationOf(await (await signedInJar()).fetch(flow.url), flow.url);
    const response = await fetch(`${idp.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'cli',
        code: callback.searchParams.get('code')!,
        code_verifier: flow.verifier,
        redirect_uri: `http://127.0.0.1:${port + 1}/callback`,
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('accepts the IPv6 loopback address on any port', async () => {
    const flow = await start('http://[::1]:61234/callback');
    const callback = locationOf(await (await signedInJar()).fetch(flow.url), flow.url);
    expect(callback.host).toBe('[::1]:61234');
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it.each([
    ['another host', 'http://127.0.0.2:5000/callback'],
    ['localhost', `http://localhost:5000/callback`],
    ['another path', `http://127.0.0.1:5000/other`],
    ['https', `https://127.0.0.1:5000/callback`],
  ])('refuses %s with an error page, never a redirect', async (_, redirectUri) => {
    const flow = await start(redirectUri);
    const response = await (await signedInJar()).fetch(flow.url);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('The redirect_uri is not registered for this client.');
  });
});
