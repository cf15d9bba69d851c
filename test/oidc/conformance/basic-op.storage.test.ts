import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { databaseKinds } from '../../support/databases.js';
import { testClient, testUser } from '../../support/config-fixture.js';
import { CookieJar, locationOf } from '../../e2e/support/cookie-jar.js';
import { startIdp, type RunningIdp } from '../../e2e/support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * The OpenID Foundation's Basic OP plan (oidcc-basic-certification-test-plan)
 * and, with every module answered by form post, its Form Post OP plan
 * (oidcc-formpost-basic-certification-test-plan): one test per module, named
 * after it, each doing what the module does with openid-client as the relying
 * party, a cookie jar as the browser, and the ID token's signature checked
 * against the published key set. docs/conformance.md maps each module to its
 * test; the modules of protocol parts with files of their own (userinfo by
 * POST, acr_values, the claims parameter, client_secret_post) name those.
 */
describe.each(databaseKinds)('OpenID Foundation OP plans on %s', (kind) => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  let postConfig: oidc.Configuration;
  let keys: ReturnType<typeof createLocalJWKSet>;
  const redirectUri = 'https://rp.example.com/callback';
  const secret = testClient({ clientId: 'rp' }).clientSecret!;
  const postSecret = testClient({ clientId: 'rp-post' }).clientSecret!;

  beforeAll(async () => {
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'alice', name: 'Alice Liddell', givenName: 'Alice', familyName: 'Liddell' })],
      clients: [
        testClient({ clientId: 'rp', redirectUris: [redirectUri], skipConsent: true }),
        testClient({
          clientId: 'rp-post',
          redirectUris: [redirectUri],
          skipConsent: true,
          tokenEndpointAuthMethod: 'client_secret_post',
          tokenEndpointAuthMethodPinned: true,
        }),
      ],
    });
    const execute = [oidc.allowInsecureRequests]; // eslint-disable-line @typescript-eslint/no-deprecated -- plain HTTP on 127.0.0.1
    config = await oidc.discovery(new URL(idp.url), 'rp', {}, oidc.ClientSecretBasic(secret), { execute });
    postConfig = await oidc.discovery(new URL(idp.url), 'rp-post', {}, oidc.ClientSecretPost(postSecret), {
      execute,
    });
    keys = createLocalJWKSet((await (await fetch(`${idp.url}/oauth2/jwks`)).json()) as JSONWebKeySet);
  });
  afterAll(() => idp.stop());

  async function signIn(): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  interface Flow {
    url: URL;
    state: string;
    nonce: string | undefined;
    verifier: string;
  }

  async function authorizationRequest(
    mode: 'query' | 'form_post',
    extra: Record<string, string> = {},
    options: { nonce?: boolean; configuration?: oidc.Configuration } = {},
  ): Promise<Flow> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = options.nonce === false ? undefined : oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(options.configuration ?? config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(nonce === undefined ? {} : { nonce }),
      ...(mode === 'form_post' ? { response_mode: 'form_post' } : {}),
      ...extra,
    });
    return { url, state, nonce, verifier };
  }

  /**
   * What reaches the client: the redirect (query) or the auto-submitted
   * form's POST (form_post) as a Request, the form a relying party receives;
   * a provider page (sign-in, error) as the URL or response it stopped at.
   */
  async function respond(
    jar: CookieJar,
    start: URL,
    init: RequestInit = {},
  ): Promise<{ callback: URL | Request } | { page: URL } | { error: Response }> {
    const response = await jar.fetch(start, init);
    if (response.status >= 300 && response.status < 400) {
      const location = locationOf(response, start);
      if (location.origin !== idp.url) return { callback: location };
      if (location.pathname !== '/consent') return { page: location };
      // The user allows what the consent page asks (offline_access is always asked, OIDC Core 11).
      const decided = await jar.fetch(`${idp.url}/api/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: idp.url },
        body: JSON.stringify({ return_to: location.searchParams.get('return_to'), decision: 'allow' }),
      });
      expect(decided.status).toBe(200);
      return respond(jar, new URL(((await decided.json()) as { redirect_to: string }).redirect_to, idp.url));
    }
    if (response.status !== 200) return { error: response };
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form post in ${html.slice(0, 200)}`);
    const fields = new URLSearchParams(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1],
        decodeEntities(m[2]),
      ]),
    );
    return {
      callback: new Request(decodeEntities(action), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: fields,
      }),
    };
  }

  function callbackOf(outcome: Awaited<ReturnType<typeof respond>>): URL | Request {
    if (!('callback' in outcome)) throw new Error(`expected the client's callback, got ${JSON.stringify(outcome)}`);
    return outcome.callback;
  }

  /** The parameters the client received, from the query or the posted form. */
  async function paramsOf(callback: URL | Request): Promise<URLSearchParams> {
    return callback instanceof URL ? callback.searchParams : new URLSearchParams(await callback.clone().text());
  }

  /** Redeems the code; a posted form can be redeemed again (a replay), as its body is read from a copy. */
  async function redeem(flow: Flow, callback: URL | Request, configuration = config) {
    return oidc.authorizationCodeGrant(configuration, callback instanceof URL ? callback : callback.clone(), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  }

  async function verifiedIdToken(idToken: string) {
    return (await jwtVerify(idToken, keys, { issuer: idp.url, audience: 'rp' })).payload;
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('oidcc-discovery-endpoint-verification (Config OP): the metadata a relying party discovers by', async () => {
    const response = await fetch(`${idp.url}/.well-known/openid-configuration`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: idp.url,
      authorization_endpoint: `${idp.url}/oauth2/authorize`,
      token_endpoint: `${idp.url}/oauth2/token`,
      userinfo_endpoint: `${idp.url}/oauth2/userinfo`,
      jwks_uri: `${idp.url}/oauth2/jwks`,
      subject_types_supported: ['public'],
    });
    expect(metadata.scopes_supported).toContain('openid');
    expect(metadata.response_types_supported).toContain('code');
    expect(metadata.id_token_signing_alg_values_supported).toContain('RS256');
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['sub', 'iss', 'aud', 'exp', 'iat']));
    const jwks = (await (await fetch(metadata.jwks_uri as string)).json()) as JSONWebKeySet;
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key.kid).toBeTruthy();
      expect(key).not.toHaveProperty('d');
    }
  });

  describe.each([
    ['Basic OP', 'query'],
    ['Form Post OP', 'form_post'],
  ] as const)('%s', (_plan, mode) => {
    /** The whole flow with a session: request → callback → tokens. */
    async function signInFlow(extra: Record<string, string> = {}, options: { nonce?: boolean } = {}) {
      const jar = await signIn();
      const flow = await authorizationRequest(mode, extra, options);
      const callback = callbackOf(await respond(jar, flow.url));
      return { jar, flow, callback, tokens: await redeem(flow, callback) };
    }

    it('oidcc-server: code, tokens, an ID token of this issuer for this client with the nonce, and iss (RFC 9207)', async () => {
      const jar = await signIn();
      const flow = await authorizationRequest(mode);
      const callback = callbackOf(await respond(jar, flow.url));
      const params = await paramsOf(callback);
      expect(params.get('iss')).toBe(idp.url);
      expect(params.get('state')).toBe(flow.state);
      const tokens = await redeem(flow, callback);
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      const claims = await verifiedIdToken(tokens.id_token!);
      expect(claims).toMatchObject({ iss: idp.url, aud: 'rp', sub: 'alice', nonce: flow.nonce });
      expect(claims.iat).toBeTypeOf('number');
      expect(claims.exp! > claims.iat!).toBe(true);
    });

    it('oidcc-response-type-missing: a request without response_type is answered invalid_request at the client', async () => {
      const flow = await authorizationRequest(mode);
      flow.url.searchParams.delete('response_type');
      const params = await paramsOf(callbackOf(await respond(await signIn(), flow.url)));
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('state')).toBe(flow.state);
    });

    it('oidcc-idtoken-signature: the ID token is signed (RS256 by default) with a key of the key set, named by kid', async () => {
      const { tokens } = await signInFlow();
      const header = decodeProtectedHeader(tokens.id_token!);
      expect(header.alg).toBe('RS256');
      expect(header.kid).toBeTruthy();
      await expect(verifiedIdToken(tokens.id_token!)).resolves.toMatchObject({ sub: 'alice' });
    });

    it('oidcc-idtoken-unsigned: not applicable, `none` is never offered or used for ID tokens', async () => {
      const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as {
        id_token_signing_alg_values_supported: string[];
      };
      expect(metadata.id_token_signing_alg_values_supported).not.toContain('none');
      const { tokens } = await signInFlow();
      expect(decodeProtectedHeader(tokens.id_token!).alg).not.toBe('none');
    });

    it('oidcc-userinfo-get: the access token reads userinfo by GET, for the same sub', async () => {
      const { tokens } = await signInFlow({ scope: 'openid email' });
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, 'alice');
      expect(userinfo).toMatchObject({ sub: 'alice', email: 'alice@example.com' });
    });

    it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow: nonce is optional for the code flow', async () => {
      const { tokens } = await signInFlow({}, { nonce: false });
      expect(await verifiedIdToken(tokens.id_token!)).not.toHaveProperty('nonce');
    });

    it('oidcc-scope-profile: the profile scope releases the profile claims at userinfo', async () => {
      const { tokens } = await signInFlow({ scope: 'openid profile' });
      expect(await oidc.fetchUserInfo(config, tokens.access_token, 'alice')).toMatchObject({
        name: 'Alice Liddell',
        given_name: 'Alice',
        family_name: 'Liddell',
      });
    });

    it('oidcc-scope-email: the email scope releases email and email_verified', async () => {
      const { tokens } = await signInFlow({ scope: 'openid email' });
      expect(await oidc.fetchUserInfo(config, tokens.access_token, 'alice')).toMatchObject({
        email: 'alice@example.com',
        email_verified: true,
      });
    });

    it('oidcc-scope-address and oidcc-scope-phone: not applicable, neither scope is offered; asked for, they are dropped and the sign-in succeeds', async () => {
      const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as {
        scopes_supported: string[];
      };
      expect(metadata.scopes_supported).not.toContain('address');
      expect(metadata.scopes_supported).not.toContain('phone');
      for (const scope of ['openid address', 'openid phone']) {
        const { tokens } = await signInFlow({ scope });
        expect(tokens.scope).toBe('openid');
      }
    });

    it('oidcc-scope-all: every scope at once releases what idp holds', async () => {
      const { tokens } = await signInFlow({ scope: 'openid profile email address phone' });
      expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
      expect(await oidc.fetchUserInfo(config, tokens.access_token, 'alice')).toMatchObject({
        name: 'Alice Liddell',
        email: 'alice@example.com',
      });
    });

    it('oidcc-ensure-other-scope-order-succeeds: the order of scopes does not matter', async () => {
      const { tokens } = await signInFlow({ scope: 'email openid' });
      expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
    });

    it.each(['page', 'popup'])('oidcc-display-%s: the display parameter is accepted', async (display) => {
      const { tokens } = await signInFlow({ display });
      expect(tokens.access_token).toBeTruthy();
    });

    it('oidcc-prompt-login: prompt=login sends a signed-in user to sign in again', async () => {
      const flow = await authorizationRequest(mode, { prompt: 'login' });
      const outcome = await respond(await signIn(), flow.url);
      expect('page' in outcome && outcome.page.pathname).toBe('/login');
    });

    it('oidcc-prompt-none-not-logged-in: prompt=none without a session answers login_required', async () => {
      const flow = await authorizationRequest(mode, { prompt: 'none' });
      const params = await paramsOf(callbackOf(await respond(new CookieJar(), flow.url)));
      expect(params.get('error')).toBe('login_required');
      expect(params.get('state')).toBe(flow.state);
    });

    it('oidcc-prompt-none-logged-in: prompt=none with a session answers with a code', async () => {
      const { tokens } = await signInFlow({ prompt: 'none' });
      expect((await verifiedIdToken(tokens.id_token!)).sub).toBe('alice');
    });

    it('oidcc-max-age-1: a sign-in older than max_age is asked again', async () => {
      const jar = await signIn();
      await sleep(1100);
      const outcome = await respond(jar, (await authorizationRequest(mode, { max_age: '1' })).url);
      expect('page' in outcome && outcome.page.pathname).toBe('/login');
    });

    it('oidcc-max-age-10000: a recent sign-in passes, and the ID token carries auth_time', async () => {
      const { tokens } = await signInFlow({ max_age: '10000' });
      const claims = await verifiedIdToken(tokens.id_token!);
      expect(claims.auth_time).toBeTypeOf('number');
      expect(Math.abs((claims.auth_time as number) - Date.now() / 1000)).toBeLessThan(60);
    });

    it('oidcc-ensure-request-with-unknown-parameter-succeeds: unknown parameters are ignored', async () => {
      const { tokens } = await signInFlow({ extra_parameter: 'ignored' });
      expect(tokens.access_token).toBeTruthy();
    });

    it('oidcc-id-token-hint: an ID token of the session as id_token_hint with prompt=none answers with a code', async () => {
      const { jar, tokens } = await signInFlow();
      const flow = await authorizationRequest(mode, { prompt: 'none', id_token_hint: tokens.id_token! });
      const again = await redeem(flow, callbackOf(await respond(jar, flow.url)));
      expect((await verifiedIdToken(again.id_token!)).sub).toBe('alice');
    });

    it('oidcc-login-hint: login_hint is accepted (it fills the sign-in form)', async () => {
      const flow = await authorizationRequest(mode, { login_hint: 'alice@example.com' });
      const outcome = await respond(new CookieJar(), flow.url);
      expect('page' in outcome && outcome.page.pathname).toBe('/login');
      const { tokens } = await signInFlow({ login_hint: 'alice@example.com' });
      expect(tokens.access_token).toBeTruthy();
    });

    it('oidcc-ui-locales: ui_locales is accepted, and the sign-in pages speak its first shipped language', async () => {
      const flow = await authorizationRequest(mode, { ui_locales: 'fr-CA de en' });
      const outcome = await respond(new CookieJar(), flow.url);
      if (!('page' in outcome)) throw new Error('expected the sign-in page');
      const page = await (await fetch(outcome.page, { headers: { 'accept-language': 'en' } })).text();
      expect(page).toContain('<html lang="de"');
      const { tokens } = await signInFlow({ ui_locales: 'de en' });
      expect(tokens.access_token).toBeTruthy();
    });

    it('oidcc-claims-locales: claims_locales is accepted (claims have one language)', async () => {
      const { tokens } = await signInFlow({ claims_locales: 'de en' });
      expect(tokens.access_token).toBeTruthy();
    });

    it('oidcc-ensure-request-with-acr-values-succeeds: acr_values idp does not know are ignored', async () => {
      const { tokens } = await signInFlow({ acr_values: '1 2' });
      expect((await verifiedIdToken(tokens.id_token!)).sub).toBe('alice');
    });

    it('oidcc-codereuse: a code redeemed twice is refused the second time', async () => {
      const { flow, callback } = await signInFlow();
      await expect(redeem(flow, callback)).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('oidcc-codereuse-30seconds: a replayed code also revokes the tokens issued for it', async () => {
      const { flow, callback, tokens } = await signInFlow();
      await expect(redeem(flow, callback)).rejects.toMatchObject({ error: 'invalid_grant' });
      const userinfo = await fetch(`${idp.url}/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(userinfo.status).toBe(401);
    });

    it('oidcc-ensure-registered-redirect-uri: an unregistered redirect_uri is an error page, never a redirect', async () => {
      const flow = await authorizationRequest(mode, { redirect_uri: 'https://attacker.example.com/callback' });
      const outcome = await respond(await signIn(), flow.url);
      expect('error' in outcome && outcome.error.status).toBe(400);
      if ('error' in outcome) expect(outcome.error.headers.get('location')).toBeNull();
    });

    it('oidcc-ensure-post-request-succeeds: the authorization request by POST', async () => {
      const jar = await signIn();
      const flow = await authorizationRequest(mode);
      const callback = callbackOf(
        await respond(jar, new URL(`${idp.url}/oauth2/authorize`), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: flow.url.searchParams,
        }),
      );
      expect((await verifiedIdToken((await redeem(flow, callback)).id_token!)).sub).toBe('alice');
    });

    it('oidcc-server-client-secret-post: a client authenticating with client_secret_post', async () => {
      const jar = await signIn();
      const flow = await authorizationRequest(mode, {}, { configuration: postConfig });
      const tokens = await redeem(flow, callbackOf(await respond(jar, flow.url)), postConfig);
      expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
      expect(tokens.claims()?.aud).toBe('rp-post');
    });

    it('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported: `request` answers request_not_supported', async () => {
      const flow = await authorizationRequest(mode, { request: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.' });
      const params = await paramsOf(callbackOf(await respond(await signIn(), flow.url)));
      expect(params.get('error')).toBe('request_not_supported');
      expect(params.get('state')).toBe(flow.state);
    });

    it('oidcc-ensure-request-object-with-redirect-uri: not applicable (request_parameter_supported is false); a request object is refused', async () => {
      const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      expect(metadata.request_parameter_supported).toBe(false);
      const flow = await authorizationRequest(mode, { request: 'eyJhbGciOiJub25lIn0.eyJyZWRpcmVjdF91cmkiOiJ4In0.' });
      expect((await paramsOf(callbackOf(await respond(await signIn(), flow.url)))).get('error')).toBe(
        'request_not_supported',
      );
    });

    it('oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported: a request_uri that was not pushed answers request_uri_not_supported', async () => {
      const flow = await authorizationRequest(mode, { request_uri: 'https://rp.example.com/request.jwt' });
      const params = await paramsOf(callbackOf(await respond(await signIn(), flow.url)));
      expect(params.get('error')).toBe('request_uri_not_supported');
    });

    it('oidcc-refresh-token: a refresh token gives new tokens for the same user, and the spent one is refused', async () => {
      const { tokens } = await signInFlow({ scope: 'openid offline_access' });
      expect(tokens.refresh_token).toBeTruthy();
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      const claims = await verifiedIdToken(refreshed.id_token!);
      expect(claims.sub).toBe('alice');
      expect(claims.auth_time).toBe((await verifiedIdToken(tokens.id_token!)).auth_time);
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('oidcc-ensure-request-with-valid-pkce-succeeds: a valid S256 verifier redeems; a wrong one does not', async () => {
      const jar = await signIn();
      const flow = await authorizationRequest(mode);
      const callback = callbackOf(await respond(jar, flow.url));
      await expect(redeem({ ...flow, verifier: oidc.randomPKCECodeVerifier() }, callback)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      const fresh = await authorizationRequest(mode);
      expect((await redeem(fresh, callbackOf(await respond(jar, fresh.url)))).access_token).toBeTruthy();
    });
  });
});

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);|&amp;|&quot;|&lt;|&gt;|&#x([0-9a-f]+);/gi, (entity, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { '&amp;': '&', '&quot;': '"', '&lt;': '<', '&gt;': '>' }[entity.toLowerCase()] ?? entity;
  });
}
