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
 * The authentication context (acr aal1/aal2 and the step-up that acr_values
 * or an essential acr claim asks for), the `claims` request parameter and
 * userinfo by GET and POST, as an openid-client relying party sees them
 * (docs/oidc.md, "Authentication context", "The claims parameter",
 * "UserInfo"). The describe blocks carry the names of the OpenID
 * Foundation's Basic OP test modules they stand for.
 */
describe.each(databaseKinds)('acr, the claims parameter and userinfo on %s', (kind) => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let configuration: oidc.Configuration;
  let users = 0;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
      scope: 'openid offline_access',
    });
    idp = await startIdp(
      kind,
      {
        users: Array.from({ length: 24 }, (_, i) =>
          testUser({ sub: `u${i}`, name: `User ${i}`, givenName: 'Given', locale: 'en' }),
        ),
        clients: [
          testClient({
            clientId: 'web',
            redirectUris: [rp.redirectUri],
            skipConsent: true,
            scopes: ['openid', 'profile', 'email', 'offline_access', 'groups'],
          }),
          // May not have the profile scope: the claims parameter cannot reach past it.
          testClient({ clientId: 'narrow', redirectUris: [rp.redirectUri], skipConsent: true, scopes: ['openid'] }),
          testClient({ clientId: 'asks', redirectUris: [rp.redirectUri] }),
        ],
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

  /** A fresh user signed in with a password alone: a session at aal1. */
  async function passwordSession(): Promise<{ jar: CookieJar; email: string }> {
    const email = `u${users++}@example.com`;
    const jar = new CookieJar();
    expect((await post(jar, '/api/auth/login', { email, password })).status).toBe(200);
    return { jar, email };
  }

  /** Follows the provider's redirects from `url` until they leave it, or reach one of its pages. */
  async function follow(jar: CookieJar, url: URL): Promise<URL> {
    let next = url;
    while (next.origin === idp.url && next.pathname.startsWith('/oauth2/'))
      next = locationOf(await jar.fetch(next), next);
    return next;
  }

  const authorize = (jar: CookieJar, extra: Record<string, string> = {}) =>
    rp.authorizationUrl(extra).then((url) => follow(jar, url));

  /** A plain authorization request, with the client id and redirect URI of `clientId`. */
  function requestOf(clientId: string, extra: Record<string, string>): URL {
    return new URL(
      `/oauth2/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: rp.redirectUri,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 'st',
        ...extra,
      })}`,
      idp.url,
    );
  }

  const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as oidc.IDToken;

  describe('oidcc-ensure-request-with-acr-values-succeeds', () => {
    it('steps a password-only session up to a code: the user asked to use the app added since, acr aal2 with otp, kept on refresh', async () => {
      const { jar } = await passwordSession();
      const { secret } = (await (await post(jar, '/api/user/totp', {})).json()) as { secret: string };
      expect((await post(jar, '/api/user/totp/confirm', { code: otp.generate(secret) })).status).toBe(200);

      const page = await authorize(jar, { acr_values: 'aal2' });
      expect(page.pathname).toBe('/login/second-factor');
      expect(page.searchParams.get('step_up')).toBe('true');
      const returnTo = page.searchParams.get('return_to')!;
      expect(new URLSearchParams(returnTo.split('?')[1]).get('acr_values')).toBe('aal2');

      const stepped = await post(jar, '/api/auth/step-up', {});
      expect(await stepped.json()).toMatchObject({ factors: ['totp', 'recovery_code'], enrolment_required: false });
      // The confirmation spent this step's code; the next step's is accepted too (±1 step).
      const next = otp.clone({ epoch: Date.now() + 30_000 }).generate(secret);
      expect((await post(jar, '/api/auth/login/totp', { code: next })).status).toBe(200);

      const result = await rp.finish(await follow(jar, new URL(returnTo, idp.url)));
      expect(result.claims).toMatchObject({ acr: 'aal2', amr: ['pwd', 'otp'] });
      const refreshed = await oidc.refreshTokenGrant(configuration, result.refreshToken!);
      expect(refreshed.claims()).toMatchObject({ acr: 'aal2', amr: ['pwd', 'otp'] });

      // At aal2 now: the same request is answered at once.
      const again = await rp.finish(await authorize(jar, { acr_values: 'aal2' }));
      expect(again.claims.acr).toBe('aal2');
    });

    it('steps a user without a factor up through its enrolment, after the login round trip kept acr_values', async () => {
      const jar = new CookieJar();
      const login = await authorize(jar, { acr_values: 'aal2' });
      expect(login.pathname).toBe('/login');
      const returnTo = login.searchParams.get('return_to')!;
      expect(returnTo).toContain('acr_values=aal2');
      const email = `u${users++}@example.com`;
      expect((await post(jar, '/api/auth/login', { email, password })).status).toBe(200);

      const page = await follow(jar, new URL(returnTo, idp.url));
      expect(page.pathname).toBe('/login/second-factor');
      expect(await (await post(jar, '/api/auth/step-up', {})).json()).toMatchObject({ enrolment_required: true });
      const { secret } = (await (await post(jar, '/api/user/totp', {})).json()) as { secret: string };
      expect((await post(jar, '/api/user/totp/confirm', { code: otp.generate(secret) })).status).toBe(200);
      const result = await rp.finish(await follow(jar, new URL(page.searchParams.get('return_to')!, idp.url)));
      expect(result.claims).toMatchObject({ acr: 'aal2', amr: ['pwd', 'otp'] });
    });

    it('does not ask a passkey session again: it is at aal2', async () => {
      const { jar } = await passwordSession();
      const device = new SoftwareAuthenticator(idp.url);
      const options = await (await post(jar, '/api/user/passkeys/options', {})).json();
      expect(
        (await post(jar, '/api/user/passkeys', { response: device.register(options as never), name: 'Key' })).status,
      ).toBe(201);
      const browser = new CookieJar();
      const request = await (await post(browser, '/api/auth/passkey/options', {})).json();
      const verified = await post(browser, '/api/auth/passkey/verify', { response: device.assert(request as never) });
      expect(verified.status).toBe(200);
      const result = await rp.finish(await authorize(browser, { acr_values: 'aal2' }));
      expect(result.claims).toMatchObject({ acr: 'aal2', amr: ['hwk'] });
    });

    it('meets a list that also names aal1, or unknown values, with aal1', async () => {
      const { jar } = await passwordSession();
      for (const acrValues of ['aal2 aal1', 'aal1', 'urn:example:unknown']) {
        const result = await rp.finish(await authorize(jar, { acr_values: acrValues }));
        expect(result.claims, acrValues).toMatchObject({ acr: 'aal1', amr: ['pwd'] });
      }
      // Unknown values beside aal2 leave aal2 asked for.
      expect((await authorize(jar, { acr_values: 'urn:example:unknown aal2' })).pathname).toBe('/login/second-factor');
    });

    it('answers prompt=none below aal2 with interaction_required, and without a session with login_required', async () => {
      const { jar } = await passwordSession();
      const silent = await authorize(jar, { acr_values: 'aal2', prompt: 'none' });
      expect(silent.origin).toBe(rp.url);
      expect(Object.fromEntries(silent.searchParams)).toMatchObject({ error: 'interaction_required' });
      const nobody = await authorize(new CookieJar(), { acr_values: 'aal2', prompt: 'none' });
      expect(Object.fromEntries(nobody.searchParams)).toMatchObject({ error: 'login_required' });
    });

    it('lists aal1 and aal2 and the claims parameter in discovery', () => {
      const metadata = configuration.serverMetadata();
      expect(metadata.acr_values_supported).toEqual(['aal1', 'aal2']);
      expect(metadata.claims_parameter_supported).toBe(true);
      expect(metadata.claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'name', 'email', 'groups']));
    });
  });

  describe('oidcc-claims-essential', () => {
    it('steps up for an essential acr claim asking for aal2; a voluntary one, or one that allows aal1, asks nothing', async () => {
      const { jar } = await passwordSession();
      const essential = JSON.stringify({ id_token: { acr: { essential: true, values: ['aal2'] } } });
      expect((await authorize(jar, { claims: essential })).pathname).toBe('/login/second-factor');
      const single = JSON.stringify({ id_token: { acr: { essential: true, value: 'aal2' } } });
      expect((await authorize(jar, { claims: single })).pathname).toBe('/login/second-factor');
      for (const claims of [
        { id_token: { acr: { values: ['aal2'] } } },
        { id_token: { acr: { essential: true, values: ['aal2', 'aal1'] } } },
        { id_token: { acr: null } },
        { userinfo: { acr: { essential: true, value: 'aal2' } } },
      ]) {
        const result = await rp.finish(await authorize(jar, { claims: JSON.stringify(claims) }));
        expect(result.claims.acr, JSON.stringify(claims)).toBe('aal1');
      }
    });

    it('releases an essential name claim asked for in userinfo only there, with the openid scope alone', async () => {
      const { jar } = await passwordSession();
      const claims = JSON.stringify({ userinfo: { name: { essential: true }, given_name: null, nickname: null } });
      const result = await rp.finish(await authorize(jar, { claims }));
      expect(result.scope).toBe('openid offline_access');
      expect(result.userinfo).toEqual({
        sub: result.claims.sub,
        name: expect.stringMatching(/^User /),
        given_name: 'Given',
      });
      expect(result.claims).not.toHaveProperty('name');
      // The refreshed access token still carries the request to userinfo.
      const refreshed = await oidc.refreshTokenGrant(configuration, result.refreshToken!);
      expect(refreshed.claims()).not.toHaveProperty('name');
      const info = await oidc.fetchUserInfo(configuration, refreshed.access_token, result.claims.sub);
      expect(info).toMatchObject({ name: expect.stringMatching(/^User /), given_name: 'Given' });
    });

    it('refuses an access token whose userinfo_claims were added by its holder: the signature no longer fits', async () => {
      const { jar } = await passwordSession();
      const result = await rp.finish(await authorize(jar));
      expect(result.userinfo).toEqual({ sub: result.claims.sub });
      const [header, payload, signature] = result.accessToken.split('.');
      const widened = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), userinfo_claims: ['name'] };
      const forged = [header, Buffer.from(JSON.stringify(widened)).toString('base64url'), signature].join('.');
      const response = await fetch(`${idp.url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${forged}` } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('releases claims asked for in the ID token there, on refresh too, and not at userinfo', async () => {
      const { jar, email } = await passwordSession();
      const claims = JSON.stringify({ id_token: { email: { essential: true }, locale: null, groups: null } });
      const result = await rp.finish(await authorize(jar, { claims }));
      expect(result.claims).toMatchObject({ email, locale: 'en', groups: [] });
      expect(result.claims).not.toHaveProperty('email_verified');
      expect(result.userinfo).toEqual({ sub: result.claims.sub });
      // The access token's groups follow its scope alone.
      expect(decode(result.accessToken)).not.toHaveProperty('groups');
      const refreshed = await oidc.refreshTokenGrant(configuration, result.refreshToken!);
      expect(refreshed.claims()).toMatchObject({ email, locale: 'en', groups: [] });
    });

    it('releases nothing beyond the scopes the client may have', async () => {
      const { jar } = await passwordSession();
      const page = await follow(
        jar,
        requestOf('narrow', { claims: JSON.stringify({ id_token: { name: null }, userinfo: { email: null } }) }),
      );
      expect(page.origin).toBe(rp.url);
      expect(page.searchParams.get('code')).toEqual(expect.any(String));
      const stored = await idp.database.db('authorization_codes').orderBy('created_at', 'desc').first('claims');
      expect(stored).toEqual({ claims: null });
    });

    it('asks consent for the scope of a claim beyond the requested scopes', async () => {
      const { jar } = await passwordSession();
      const page = await follow(jar, requestOf('asks', { claims: JSON.stringify({ userinfo: { email: null } }) }));
      expect(page.pathname).toBe('/consent');
      const returnTo = page.searchParams.get('return_to')!;
      const described = await jar.fetch(`${idp.url}/api/consent?${new URLSearchParams({ return_to: returnTo })}`);
      const prompt = (await described.json()) as { scopes: { scope: string }[] };
      expect(prompt.scopes.map((s) => s.scope)).toEqual(['openid', 'email']);
      const decided = await post(jar, '/api/consent', { return_to: returnTo, decision: 'allow' });
      expect(decided.status).toBe(200);
      const done = await follow(jar, new URL(returnTo, idp.url));
      expect(done.searchParams.get('code')).toEqual(expect.any(String));
      // Consented once, asked no more.
      const again = await follow(jar, requestOf('asks', { claims: JSON.stringify({ userinfo: { email: null } }) }));
      expect(again.searchParams.get('code')).toEqual(expect.any(String));
    });

    it('answers a request for another sub than the signed-in user with login_required, and its own with a code', async () => {
      const { jar } = await passwordSession();
      const own = await rp.finish(await authorize(jar));
      const other = await authorize(jar, { claims: JSON.stringify({ id_token: { sub: { value: 'someone-else' } } }) });
      expect(Object.fromEntries(other.searchParams)).toMatchObject({ error: 'login_required' });
      const same = await authorize(jar, { claims: JSON.stringify({ id_token: { sub: { value: own.claims.sub } } }) });
      expect((await rp.finish(same)).claims.sub).toBe(own.claims.sub);
    });

    it('answers a malformed claims parameter with invalid_request at the client', async () => {
      const { jar } = await passwordSession();
      for (const claims of [
        '{"userinfo":',
        '["name"]',
        '{"userinfo":["name"]}',
        '{"id_token":{"name":true}}',
        '{"id_token":{"name":{"essential":"yes"}}}',
        '{"id_token":{"name":{"values":"x"}}}',
      ]) {
        const answer = await follow(jar, requestOf('web', { claims }));
        expect(answer.origin, claims).toBe(rp.url);
        expect(Object.fromEntries(answer.searchParams), claims).toMatchObject({
          error: 'invalid_request',
          error_description: expect.stringMatching(/^The claims parameter /),
          state: 'st',
        });
      }
    });
  });

  describe('oidcc-userinfo-get, oidcc-userinfo-post-header, oidcc-userinfo-post-body', () => {
    let accessToken: string;
    let sub: string;
    beforeAll(async () => {
      const { jar } = await passwordSession();
      const result = await rp.finish(await authorize(jar, { scope: 'openid profile' }));
      accessToken = result.accessToken;
      sub = result.claims.sub;
    });
    const userinfo = (init: RequestInit) => fetch(`${idp.url}/oauth2/userinfo`, init);
    const expectUser = async (response: Response) => {
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub, name: expect.stringMatching(/^User /) });
    };

    it('answers GET with the bearer header', async () => {
      await expectUser(await userinfo({ headers: { authorization: `Bearer ${accessToken}` } }));
    });

    it('answers POST with the bearer header and no body, or an empty form body', async () => {
      await expectUser(await userinfo({ method: 'POST', headers: { authorization: `Bearer ${accessToken}` } }));
      await expectUser(
        await userinfo({
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        }),
      );
      // openid-client's own POST.
      await expect(
        oidc.fetchProtectedResource(configuration, accessToken, new URL(`${idp.url}/oauth2/userinfo`), 'POST'),
      ).resolves.toMatchObject({ status: 200 });
    });

    it('answers POST with the access_token form parameter, and refuses the token twice', async () => {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      await expectUser(
        await userinfo({ method: 'POST', headers: form, body: new URLSearchParams({ access_token: accessToken }) }),
      );
      const twice = await userinfo({
        method: 'POST',
        headers: { ...form, authorization: `Bearer ${accessToken}` },
        body: new URLSearchParams({ access_token: accessToken }),
      });
      expect(twice.status).toBe(400);
      expect(await twice.json()).toMatchObject({ error: 'invalid_request' });
      const none = await userinfo({ method: 'POST' });
      expect(none.status).toBe(401);
    });

    it('refuses a body that is not a form', async () => {
      const response = await userinfo({
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    });
  });
});
