import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { databaseKinds } from '../../support/databases.js';
import { testClient, testUser } from '../../support/config-fixture.js';
import { CookieJar, locationOf } from '../../e2e/support/cookie-jar.js';
import { startIdp, type RunningIdp } from '../../e2e/support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * The OpenID Foundation's RP-Initiated Logout OP plan
 * (oidcc-rp-initiated-logout-certification-test-plan): one test per module,
 * named after it. Each signs in through the code flow with openid-client,
 * sends the browser to the end_session_endpoint as the module does, and
 * checks where it ends up and whether the session (and with it prompt=none)
 * is gone.
 */
describe.each(databaseKinds)('OpenID Foundation RP-Initiated Logout OP plan on %s', (kind) => {
  let idp: RunningIdp;
  let config: oidc.Configuration;
  const redirectUri = 'https://rp.example.com/callback';
  const postLogoutUri = 'https://rp.example.com/post_logout_redirect';

  beforeAll(async () => {
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'rp',
          redirectUris: [redirectUri],
          postLogoutRedirectUris: [postLogoutUri],
          skipConsent: true,
        }),
      ],
    });
    config = await oidc.discovery(
      new URL(idp.url),
      'rp',
      {},
      oidc.ClientSecretBasic(testClient({ clientId: 'rp' }).clientSecret!),
      { execute: [oidc.allowInsecureRequests] }, // eslint-disable-line @typescript-eslint/no-deprecated -- plain HTTP on 127.0.0.1
    );
  });
  afterAll(() => idp.stop());

  /** A signed-in browser and the ID token the relying party got in that session. */
  async function signedIn(): Promise<{ jar: CookieJar; idToken: string }> {
    const jar = new CookieJar();
    const login = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password }),
    });
    expect(login.status).toBe(200);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const start = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = locationOf(await jar.fetch(start), start);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    return { jar, idToken: tokens.id_token! };
  }

  const endSession = (jar: CookieJar, params: Record<string, string>) =>
    jar.fetch(`${idp.url}/oauth2/logout?${new URLSearchParams(params)}`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });

  /** The module's last step: prompt=none must fail once the session ended, and succeed while it lives. */
  async function promptNoneError(jar: CookieJar): Promise<string | null> {
    const start = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      prompt: 'none',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    return locationOf(await jar.fetch(start), start).searchParams.get('error');
  }

  /** The answer to the "Sign out?" question, posted from the provider's own page with its hidden fields. */
  async function confirm(jar: CookieJar, question: Response): Promise<Response> {
    const html = await question.text();
    expect(html).toContain('action="/oauth2/logout/confirm"');
    const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, name, value]) => [name, value.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))],
    );
    return jar.fetch(`${idp.url}/oauth2/logout/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idp.url },
      body: new URLSearchParams(fields),
    });
  }

  it('oidcc-rp-initiated-logout-discovery-endpoint-verification: discovery names the end_session_endpoint', async () => {
    const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.end_session_endpoint).toBe(`${idp.url}/oauth2/logout`);
  });

  it('oidcc-rp-initiated-logout: id_token_hint, post_logout_redirect_uri and state sign out and return with the state', async () => {
    const { jar, idToken } = await signedIn();
    expect(await promptNoneError(jar)).toBeNull();
    const state = 'a'.repeat(128);
    const done = await endSession(jar, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutUri, state });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${postLogoutUri}?state=${state}`);
    expect(await promptNoneError(jar)).toBe('login_required');
  });

  it('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri: an unregistered post_logout_redirect_uri is an error page, never a redirect', async () => {
    const { jar, idToken } = await signedIn();
    const refused = await endSession(jar, {
      id_token_hint: idToken,
      post_logout_redirect_uri: 'https://attacker.example.com/logout',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('The post_logout_redirect_uri is not registered for this client.');
  });

  it('oidcc-rp-initiated-logout-modified-id-token-hint: a hint whose signature does not verify is an error page, never a redirect', async () => {
    const { jar, idToken } = await signedIn();
    const [header, payload, signature] = idToken.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const refused = await endSession(jar, {
      id_token_hint: `${header}.${payload}.${flipped}`,
      post_logout_redirect_uri: postLogoutUri,
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await promptNoneError(jar)).toBeNull();
  });

  it('oidcc-rp-initiated-logout-no-id-token-hint: with client_id and no hint the user is asked, then returned', async () => {
    const { jar } = await signedIn();
    const question = await endSession(jar, { client_id: 'rp', post_logout_redirect_uri: postLogoutUri, state: 's' });
    expect(question.status).toBe(200);
    expect(await promptNoneError(jar)).toBeNull();
    const answered = await confirm(jar, question);
    expect(await answered.text()).toContain(`url=${postLogoutUri}?state=s`);
    expect(await promptNoneError(jar)).toBe('login_required');
  });

  it('oidcc-rp-initiated-logout-no-params: without parameters the user is asked and signed out on the provider', async () => {
    const { jar } = await signedIn();
    const question = await endSession(jar, {});
    expect(question.status).toBe(200);
    const answered = await confirm(jar, question);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('You have been signed out.');
    expect(await promptNoneError(jar)).toBe('login_required');
  });

  it('oidcc-rp-initiated-logout-no-post-logout-redirect-uri: a hint alone signs out and stays on the provider', async () => {
    const { jar, idToken } = await signedIn();
    const done = await endSession(jar, { id_token_hint: idToken });
    expect(done.status).toBe(200);
    expect(done.headers.get('location')).toBeNull();
    expect(await done.text()).toContain('You have been signed out.');
    expect(await promptNoneError(jar)).toBe('login_required');
  });

  it('oidcc-rp-initiated-logout-no-state: without state the redirect carries none', async () => {
    const { jar, idToken } = await signedIn();
    const done = await endSession(jar, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutUri });
    expect(done.headers.get('location')).toBe(postLogoutUri);
  });

  it('oidcc-rp-initiated-logout-only-state: state without post_logout_redirect_uri signs out, no redirect', async () => {
    const { jar, idToken } = await signedIn();
    const done = await endSession(jar, { id_token_hint: idToken, state: 'only' });
    expect(done.status).toBe(200);
    expect(done.headers.get('location')).toBeNull();
    expect(await promptNoneError(jar)).toBe('login_required');
  });
});
