import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import * as oidc from 'openid-client';
import { testClient, testUser } from '../support/config-fixture.js';
import { launchChromium } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * A pushed authorization request (RFC 9126) through the built-in pages in
 * Chromium: the sign-in and consent pages hand the sealed request on
 * (docs/oidc.md, "Pushed authorization requests"), and openid-client
 * redeems the code.
 */
describe('a pushed authorization request through the built-in pages in Chromium', () => {
  let idp: RunningIdp;
  let app: http.Server;
  let redirectUri: string;
  let browser: Browser;
  let config: oidc.Configuration;

  beforeAll(async () => {
    app = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'web',
          name: 'Acme Notes',
          redirectUris: [redirectUri],
          requirePushedAuthorizationRequests: true,
        }),
      ],
    });
    config = await oidc.discovery(
      new URL(idp.url),
      'web',
      undefined,
      oidc.ClientSecretPost(testClient({ clientId: 'web' }).clientSecret!),
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test servers speak plain HTTP on 127.0.0.1
      { execute: [oidc.allowInsecureRequests] },
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await new Promise<void>((resolve) => app.close(() => resolve()));
  });

  it('signs in, consents and lands on the callback with a code openid-client redeems', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(url.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/consent');
    await page.getByRole('heading', { name: 'Allow Acme Notes to access your account?' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    const callback = new URL(page.url());
    await page.close();
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: 'alice', aud: 'web', nonce });
  });
});
