import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { authenticator as otp } from 'otplib';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * RFC 8176 amr and auth_time as an openid-client relying party sees them,
 * after each way of signing in: a password with an authenticator app's
 * code, a passkey alone, and the refreshed ID token of the first.
 */
describe.each(databaseKinds)('amr in ID tokens on %s', (kind) => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let configuration: oidc.Configuration;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
      scope: 'openid email offline_access',
    });
    idp = await startIdp(
      kind,
      {
        users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
        clients: [testClient({ clientId: 'web', redirectUris: [rp.redirectUri], skipConsent: true })],
      },
      { hostname: 'localhost' },
    );
    configuration = await rp.discover(idp.url);
  });
  afterAll(() => idp.stop());

  const post = (jar: CookieJar, path: string, body: unknown) =>
    jar.fetch(`${idp.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify(body),
    });

  async function toCallback(jar: CookieJar): Promise<URL> {
    let url = await rp.authorizationUrl();
    while (url.origin === idp.url) url = locationOf(await jar.fetch(url), url);
    return url;
  }

  it('carries pwd and otp after a password and a code, and keeps them, with auth_time, on refresh', async () => {
    const jar = new CookieJar();
    expect((await post(jar, '/api/auth/login', { email: 'alice@example.com', password })).status).toBe(200);
    const { secret } = (await (await post(jar, '/api/user/totp', {})).json()) as { secret: string };
    expect((await post(jar, '/api/user/totp/confirm', { code: otp.generate(secret) })).status).toBe(200);

    const fresh = new CookieJar();
    const pending = (await (await post(fresh, '/api/auth/login', { email: 'alice@example.com', password })).json()) as {
      factors: string[];
    };
    expect(pending.factors).toContain('totp');
    // The confirmation spent this step's code; the next step's is accepted too (±1 step).
    const next = otp.clone({ epoch: Date.now() + 30_000 }).generate(secret);
    const before = Math.floor(Date.now() / 1000);
    expect((await post(fresh, '/api/auth/login/totp', { code: next })).status).toBe(200);
    const result = await rp.finish(await toCallback(fresh));
    expect(result.claims.amr).toEqual(['pwd', 'otp']);
    expect(result.claims.auth_time).toBeGreaterThanOrEqual(before);
    const refreshed = await oidc.refreshTokenGrant(configuration, result.refreshToken!);
    expect(refreshed.claims()).toMatchObject({ amr: ['pwd', 'otp'], auth_time: result.claims.auth_time });
  });

  it('carries hwk after a passwordless sign-in with a passkey', async () => {
    const jar = new CookieJar();
    // Bob has no second factor yet: the password alone signs him in, to register a passkey.
    expect((await post(jar, '/api/auth/login', { email: 'bob@example.com', password })).status).toBe(200);
    const device = new SoftwareAuthenticator(idp.url);
    const options = await (await post(jar, '/api/user/passkeys/options', {})).json();
    expect(
      (await post(jar, '/api/user/passkeys', { response: device.register(options as never), name: 'Laptop' })).status,
    ).toBe(201);

    const browser = new CookieJar();
    const request = await (await post(browser, '/api/auth/passkey/options', {})).json();
    expect(
      (await post(browser, '/api/auth/passkey/verify', { response: device.assert(request as never) })).status,
    ).toBe(200);
    const result = await rp.finish(await toCallback(browser));
    expect(result.claims.amr).toEqual(['hwk']);
    expect(result.userinfo.email).toBe('bob@example.com');
  });
});
