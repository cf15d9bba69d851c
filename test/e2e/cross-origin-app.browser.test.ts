import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClient, testUser } from '../support/config-fixture.js';
import { launchChromium, watchPage } from './support/browser.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * Issue 10, CORS: a single-page app on another origin (another port of
 * 127.0.0.1), registered as a public client, uses oauth4webapi's browser
 * build in Chromium to discover the provider, sign in with PKCE through the
 * built-in pages, call userinfo, refresh, revoke and read the JWK Set, all
 * with fetch from its own origin.
 */
const oauth4webapiFile = path.join(path.dirname(createRequire(import.meta.url).resolve('oauth4webapi')), 'index.js');

/** The app: on / it starts a sign-in, on /callback it finishes it and shows what it got in #result. */
function appModule(issuer: string): string {
  return `import * as oauth from '/oauth4webapi.js';

const issuer = new URL(${JSON.stringify(issuer)});
const client = { client_id: 'spa' };
const redirectUri = location.origin + '/callback';
const insecure = { [oauth.allowInsecureRequests]: true };
const show = (result) => { document.getElementById('result').textContent = JSON.stringify(result); };

try {
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  if (location.pathname !== '/callback') {
    const flow = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce() };
    sessionStorage.setItem('flow', JSON.stringify(flow));
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: client.client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'openid email offline_access',
      code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier), code_challenge_method: 'S256',
      state: flow.state, nonce: flow.nonce,
    }).toString();
    location.assign(url.href);
  } else {
    const flow = JSON.parse(sessionStorage.getItem('flow'));
    const params = oauth.validateAuthResponse(as, client, new URL(location.href), flow.state);
    const code = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, flow.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, code, { expectedNonce: flow.nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    const userinfo = await oauth.processUserInfoResponse(as, client, claims.sub, await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token, insecure));
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token, insecure));
    const jwks = await (await fetch(as.jwks_uri)).json();
    show({ sub: claims.sub, email: userinfo.email, refreshed: refreshed.access_token !== tokens.access_token, keys: jwks.keys.length });
  }
} catch (error) {
  show({ error: String(error), cause: String(error.cause ?? '') });
  throw error;
}
`;
}

const appPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SPA</title><link rel="icon" href="data:,">' +
  '<script type="module" src="/app.js"></script></head><body><pre id="result"></pre></body></html>';

describe('a browser app on another origin (CORS) in Chromium', () => {
  let idp: RunningIdp;
  let app: http.Server;
  let appUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'spa',
          name: 'Acme SPA',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [`${appUrl}/callback`],
        }),
      ],
    });
    const library = await readFile(oauth4webapiFile, 'utf8');
    app = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', appUrl).pathname;
      const [type, body] =
        pathname === '/app.js'
          ? ['text/javascript', appModule(idp.url)]
          : pathname === '/oauth4webapi.js'
            ? ['text/javascript', library]
            : ['text/html; charset=utf-8', appPage];
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => app.listen(port, '127.0.0.1', resolve));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (app ? app.close(() => resolve()) : resolve()));
    await idp?.stop();
  });

  it('discovers, signs in with PKCE, calls userinfo, refreshes and revokes without a CORS error', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    await page.goto(`${appUrl}/`);
    await page.waitForURL((url) => url.origin === idp.url && url.pathname === '/login');
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === appUrl && url.pathname === '/callback');
    await expect.poll(() => page.locator('#result').textContent()).not.toBe('');

    expect(JSON.parse((await page.locator('#result').textContent()) ?? '')).toEqual({
      sub: 'alice',
      email: 'alice@example.com',
      refreshed: true,
      keys: 1,
    });
    expect(reports.console.filter((message) => /cors|access-control/i.test(message.text))).toEqual([]);
    // The built-in UI has no favicon yet: Chromium's request for idp's is a 404, unrelated to CORS.
    const favicon = (message: { url: string }) => message.url === `${idp.url}/favicon.ico`;
    expect(reports.console.filter((message) => message.type === 'error' && !favicon(message))).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await page.close();
  });
});
