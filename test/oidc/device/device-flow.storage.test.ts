import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createHash } from 'node:crypto';
import { createApp, type App } from '../../../src/app.js';
import type { Config } from '../../../src/config/types.js';
import { applyConfig } from '../../../src/gitops/index.js';
import { testClient, testConfig, testUser } from '../../support/config-fixture.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases.js';
import { testClock } from '../../support/second-factor-client.js';
import { testPassword } from '../../support/test-app.js';
import { CookieJar, locationOf } from '../../e2e/support/cookie-jar.js';
import { freePort } from '../../e2e/support/start-idp.js';
import { insecure } from '../support/provider-fixture.js';

const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
const tvSecret = 'tv-secret-0123456789abcdef-0123456789';
const userCodeShape = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

/**
 * The Device Authorization Grant (RFC 8628) end to end over HTTP, on both
 * databases: oauth4webapi is the device, a cookie jar the user's browser
 * (the pages' own behaviour is test/oidc/device/device.browser.test.ts).
 * The app's clock is the test's, so polling intervals and expiry are exact.
 */
describe.each(databaseKinds)('the device flow on %s', (kind) => {
  const clock = testClock(Date.now());
  let url: string;
  let app: App;
  let database: TestDatabase;
  let as: oauth.AuthorizationServer;
  const tv: oauth.Client = { client_id: 'tv' };
  const tvAuth = oauth.None();
  const box: oauth.Client = { client_id: 'box' };
  const boxAuth = oauth.ClientSecretBasic(tvSecret);

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    database = await createTestDatabase(kind);
    const base = testConfig();
    const config: Config = testConfig({
      server: { baseUrl: url, baseUrlDerived: false, host: '127.0.0.1', port, trustProxy: false },
      database: database.config,
      security: { ...base.security, loginRateLimit: { maxAttempts: 5, addressMaxAttempts: 4, windowSeconds: 900 } },
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients: [
        testClient({
          clientId: 'tv',
          name: 'Living Room TV',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [],
          grantTypes: [deviceGrant, 'refresh_token'],
          skipConsent: true,
        }),
        testClient({ clientId: 'box', clientSecret: tvSecret, redirectUris: [], grantTypes: [deviceGrant] }),
        testClient({ clientId: 'web' }),
        testClient({
          clientId: 'admin-tv',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [],
          grantTypes: [deviceGrant],
          access: { groups: null, roles: ['admin'], secondFactor: null },
        }),
      ],
    });
    await applyConfig(database.storage, config);
    app = await createApp(config, { storage: database.storage, clock });
    await app.start();
    as = {
      issuer: url,
      device_authorization_endpoint: `${url}/oauth2/device_authorization`,
      token_endpoint: `${url}/oauth2/token`,
    };
  });
  afterAll(async () => {
    await app.stop({ timeoutMs: 1000 });
    await database.destroy();
  });

  async function authorizeDevice(client = tv, auth = tvAuth, scope = 'openid email offline_access') {
    const response = await oauth.deviceAuthorizationRequest(as, client, auth, { scope }, insecure);
    return oauth.processDeviceAuthorizationResponse(as, client, response);
  }

  /** One poll: the tokens, or the RFC 6749 §5.2 error code. */
  async function poll(deviceCode: string, client = tv, auth = tvAuth): Promise<oauth.TokenEndpointResponse | string> {
    const response = await oauth.deviceCodeGrantRequest(as, client, auth, deviceCode, insecure);
    try {
      return await oauth.processDeviceCodeResponse(as, client, response);
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return error.error;
      throw error;
    }
  }

  async function signedIn(email: string): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, password: testPassword }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  /** The browser's way from the device verification to the consent page: its return_to. */
  async function toConsent(jar: CookieJar, userCode: string): Promise<string> {
    const query = new URLSearchParams({ user_code: userCode });
    const consent = locationOf(await jar.fetch(`${url}/oauth2/device_verification?${query}`), url);
    expect(consent.pathname).toBe('/consent');
    return consent.searchParams.get('return_to') ?? '';
  }

  async function decide(jar: CookieJar, returnTo: string, decision: 'allow' | 'deny'): Promise<URL> {
    const decided = await jar.fetch(`${url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ return_to: returnTo, decision }),
    });
    expect(decided.status).toBe(200);
    const { redirect_to } = (await decided.json()) as { redirect_to: string };
    return locationOf(await jar.fetch(new URL(redirect_to, url)), url);
  }

  async function approve(email: string, userCode: string): Promise<void> {
    const jar = await signedIn(email);
    const done = await decide(jar, await toConsent(jar, userCode), 'allow');
    expect(`${done.pathname}${done.search}`).toBe('/device/done?result=approved');
  }

  /** The device waits its interval before the next poll. */
  const wait = (seconds: number) => clock.advance(seconds * 1000);

  it('§3.2: answers a device code, a user code of 8 consonants, the verification URIs, expires_in 600 and interval 5', async () => {
    const answer = await authorizeDevice();
    expect(answer).toMatchObject({
      verification_uri: `${url}/device`,
      verification_uri_complete: `${url}/device?user_code=${answer.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    expect(answer.user_code).toMatch(userCodeShape);
    expect(answer.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // §5.2: the device code is a bearer secret, stored only as its digest.
    const rows: { device_code_hash: string; user_code: string }[] = await database
      .db('device_codes')
      .select('device_code_hash', 'user_code');
    const row = rows.find((r) => r.user_code === answer.user_code.replace('-', ''));
    expect(row?.device_code_hash).toBe(createHash('sha256').update(answer.device_code).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(answer.device_code);
  });

  it('§3.1: refuses an unknown client, a wrong secret, a client without the grant and a request without openid', async () => {
    const form = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${url}/oauth2/device_authorization`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body),
      });
    const basic = (id: string, secret: string) => ({
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
    });
    const cases: [Response, number, string][] = [
      [await form({ client_id: 'nobody', scope: 'openid' }), 401, 'invalid_client'],
      [await form({ scope: 'openid' }, basic('box', 'wrong')), 401, 'invalid_client'],
      [await form({ scope: 'openid' }), 401, 'invalid_client'],
      [await form({ client_id: 'web', client_secret: 'x', scope: 'openid' }), 401, 'invalid_client'],
      [
        await form({ scope: 'openid' }, basic('web', testClient({ clientId: 'web' }).clientSecret!)),
        400,
        'unauthorized_client',
      ],
      [await form({ client_id: 'tv', scope: 'email' }), 400, 'invalid_scope'],
      [await form({ client_id: 'tv', scope: 'openid', extra: 'x' }), 400, 'invalid_request'],
    ];
    for (const [response, status, error] of cases) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ error });
    }
    // A confidential client authenticates as at the token endpoint.
    expect((await authorizeDevice(box, boxAuth, 'openid')).user_code).toMatch(userCodeShape);
  });

  it('§3.5: answers authorization_pending, then slow_down to a poll inside the interval, which grows by 5 seconds each time', async () => {
    const { device_code } = await authorizeDevice();
    expect(await poll(device_code)).toBe('authorization_pending');
    expect(await poll(device_code)).toBe('slow_down');
    wait(5);
    // The interval is 10 seconds now: 5 are too few, and make it 15.
    expect(await poll(device_code)).toBe('slow_down');
    wait(14);
    expect(await poll(device_code)).toBe('slow_down');
    wait(20);
    expect(await poll(device_code)).toBe('authorization_pending');
    wait(20);
    expect(await poll(device_code)).toBe('authorization_pending');
  });

  it('§3.3–3.5: the user approves (consent names the device request), the device gets tokens once, then invalid_grant', async () => {
    const { device_code, user_code } = await authorizeDevice();
    expect(await poll(device_code)).toBe('authorization_pending');
    const jar = await signedIn('alice@example.com');
    // Case and dash are ignored on entry (§6.1).
    const returnTo = await toConsent(jar, user_code.replace('-', '').toLowerCase());
    expect(returnTo).toBe(`/oauth2/device_verification?user_code=${user_code.replace('-', '')}`);
    const described = await jar.fetch(`${url}/api/consent?${new URLSearchParams({ return_to: returnTo })}`);
    expect(await described.json()).toMatchObject({
      client: { client_id: 'tv', name: 'Living Room TV' },
      redirect_uri: null,
      device: true,
    });
    const done = await decide(jar, returnTo, 'allow');
    expect(`${done.pathname}${done.search}`).toBe('/device/done?result=approved');
    wait(5);
    const tokens = await poll(device_code);
    if (typeof tokens === 'string') throw new Error(tokens);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'openid email offline_access' });
    expect(tokens.id_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims).toMatchObject({ sub: 'alice', aud: 'tv', iss: url, amr: ['pwd'] });
    wait(5);
    expect(await poll(device_code)).toBe('invalid_grant');
    // The refresh token works like any other.
    const refreshed = await oauth.refreshTokenGrantRequest(as, tv, tvAuth, tokens.refresh_token!, insecure);
    expect((await oauth.processRefreshTokenResponse(as, tv, refreshed)).access_token).toBeTruthy();
  });

  it('§5.4: asks for consent on every device request, though the user allowed the client before and it skips consent', async () => {
    const first = await authorizeDevice();
    await approve('alice@example.com', first.user_code);
    const second = await authorizeDevice();
    const jar = await signedIn('alice@example.com');
    // A link with someone else's code, opened by a signed-in user, stops at the consent page.
    await toConsent(jar, second.user_code);
    expect(await poll(second.device_code)).toBe('authorization_pending');
  });

  it("§5.4: another user's Allow does not approve for the user signed in now", async () => {
    const { device_code, user_code } = await authorizeDevice();
    const bob = await signedIn('bob@example.com');
    const bobsReturnTo = await toConsent(bob, user_code);
    const confirm = await bob.fetch(`${url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ return_to: bobsReturnTo, decision: 'allow' }),
    });
    expect(confirm.status).toBe(200);
    const alice = await signedIn('alice@example.com');
    await toConsent(alice, user_code);
    expect(await poll(device_code)).toBe('authorization_pending');
  });

  it('§3.5: a Deny on the consent page answers access_denied', async () => {
    const { device_code, user_code } = await authorizeDevice();
    const jar = await signedIn('alice@example.com');
    const done = await decide(jar, await toConsent(jar, user_code), 'deny');
    expect(`${done.pathname}${done.search}`).toBe('/device/done?result=denied');
    expect(await poll(device_code)).toBe('access_denied');
  });

  it("§3.5: a user outside the client's access is refused, and the device gets access_denied", async () => {
    const adminTv: oauth.Client = { client_id: 'admin-tv' };
    const { device_code, user_code } = await authorizeDevice(adminTv, tvAuth, 'openid');
    const jar = await signedIn('bob@example.com');
    const denied = locationOf(
      await jar.fetch(`${url}/oauth2/device_verification?${new URLSearchParams({ user_code })}`),
      url,
    );
    expect(denied.pathname).toBe('/access-denied');
    const page = await (await jar.fetch(denied)).text();
    const backTo = /id="back-to-client" class="button secondary" href="([^"]+)"/.exec(page)?.[1] ?? '';
    const done = locationOf(await jar.fetch(new URL(backTo.replaceAll('&#38;', '&'), url)), url);
    expect(`${done.pathname}${done.search}`).toBe('/device/done?result=denied');
    expect(await poll(device_code, adminTv)).toBe('access_denied');
  });

  it('signs in first: the verification sends a browser without a session to /login and back', async () => {
    const { user_code } = await authorizeDevice();
    const jar = new CookieJar();
    const login = locationOf(
      await jar.fetch(`${url}/oauth2/device_verification?${new URLSearchParams({ user_code })}`),
      url,
    );
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('return_to') ?? '';
    expect(returnTo).toMatch(/^\/oauth2\/device_verification\?user_code=[A-Z]{8}&auth_after=\d+$/);
    const page = await (await jar.fetch(login)).text();
    expect(page).toContain('Living Room TV');
  });

  it('§3.5: tokens go out once when polls race: exactly one of 8 concurrent polls gets them', async () => {
    const { device_code, user_code } = await authorizeDevice();
    await approve('alice@example.com', user_code);
    const results = await Promise.all(Array.from({ length: 8 }, () => poll(device_code)));
    expect(results.filter((r) => typeof r !== 'string')).toHaveLength(1);
    for (const r of results) if (typeof r === 'string') expect(['invalid_grant', 'slow_down']).toContain(r);
  });

  it("answers invalid_grant to another client's device code and to an unknown one, expired_token after 10 minutes", async () => {
    const { device_code, user_code } = await authorizeDevice();
    expect(await poll(device_code, box, boxAuth)).toBe('invalid_grant');
    expect(await poll('not-a-device-code')).toBe('invalid_grant');
    const missing = await fetch(`${url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: deviceGrant, client_id: 'tv' }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    wait(600);
    expect(await poll(device_code)).toBe('expired_token');
    // The page can no longer take the code either.
    const jar = await signedIn('alice@example.com');
    const back = locationOf(
      await jar.fetch(`${url}/oauth2/device_verification?${new URLSearchParams({ user_code })}`),
      url,
    );
    expect(back.pathname).toBe('/device');
    expect(back.searchParams.get('error')).toBe('INVALID_USER_CODE');
  });

  it('the pages: /device shows only its own errors, /device/done only its two results', async () => {
    const page = async (path: string) => {
      const response = await fetch(`${url}${path}`, { redirect: 'manual' });
      return { status: response.status, location: response.headers.get('location'), html: await response.text() };
    };
    const prefilled = await page('/device?user_code=bcdf-ghjk');
    expect(prefilled.html).toContain('value="bcdf-ghjk"');
    expect(prefilled.html).not.toContain('aria-invalid');
    expect((await page('/device?error=SOMETHING_ELSE')).html).not.toContain('data-code=');
    const locked = await page('/device?error=TOO_MANY_REQUESTS&retry_after=45');
    expect(locked.html).toContain('Too many attempts. Try again in 45 seconds.');
    expect((await page('/device?error=TOO_MANY_REQUESTS&retry_after=soon')).html).toContain(
      'Too many attempts. Try again later.',
    );
    expect((await page('/device/done?result=approved')).html).toContain('You may return to your device.');
    expect((await page('/device/done?result=denied')).html).toContain('Device not connected');
    expect(await page('/device/done?result=maybe')).toMatchObject({ status: 302, location: '/device' });
  });

  it('§3.5: declining required terms on the way denies the device request', async () => {
    const { device_code, user_code } = await authorizeDevice();
    const jar = await signedIn('alice@example.com');
    const query = new URLSearchParams({ user_code: user_code.replace('-', ''), terms_declined: 'true' });
    const done = locationOf(await jar.fetch(`${url}/oauth2/device_verification?${query}`), url);
    expect(`${done.pathname}${done.search}`).toBe('/device/done?result=denied');
    expect(await poll(device_code)).toBe('access_denied');
    // Decided: the code is no longer taken.
    const again = locationOf(
      await jar.fetch(`${url}/oauth2/device_verification?${new URLSearchParams({ user_code })}`),
      url,
    );
    expect(again.searchParams.get('error')).toBe('INVALID_USER_CODE');
  });

  it('§5.1: wrong user codes are limited per address, then even a right one is refused until the window ends', async () => {
    // A window of its own: the tests before typed a wrong code or two.
    wait(901);
    const { user_code } = await authorizeDevice();
    const verify = async (code: string) =>
      locationOf(
        await fetch(`${url}/oauth2/device_verification?${new URLSearchParams({ user_code: code })}`, {
          redirect: 'manual',
        }),
        url,
      );
    // A right code takes its attempt back: it never counts.
    expect((await verify(user_code)).pathname).toBe('/login');
    for (const wrong of ['BBBB-BBBB', 'not a code', 'CCCCCCCC', 'DDDD-DDDD']) {
      const back = await verify(wrong);
      expect(back.pathname).toBe('/device');
      expect(back.searchParams.get('error')).toBe('INVALID_USER_CODE');
    }
    const locked = await verify(user_code);
    expect(locked.pathname).toBe('/device');
    expect(locked.searchParams.get('error')).toBe('TOO_MANY_REQUESTS');
    expect(Number(locked.searchParams.get('retry_after'))).toBeGreaterThan(800);
    wait(901);
    const fresh = await authorizeDevice();
    expect((await verify(fresh.user_code)).pathname).toBe('/login');
  });
});
