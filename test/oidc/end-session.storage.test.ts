import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { databaseKinds } from '../support/databases.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { signJwt } from '../../src/keys/index.js';
import { CookieJar, locationOf } from '../e2e/support/cookie-jar.js';
import { RelyingParty } from '../e2e/support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from '../e2e/support/start-idp.js';

const password = 'correct horse battery staple';
const logoutUri = 'https://web.example.com/signed-out';

/**
 * RP-Initiated Logout 1.0 §2 (issue 10 item 7): without an ID token of the
 * signed-in session the provider asks "Sign out of NAME?" and only the
 * answer, posted from its own page, ends the session; a hint of this
 * session's user and sign-in ends it at once, as before.
 */
describe.each(databaseKinds)('RP-initiated logout on %s', (kind) => {
  let idp: RunningIdp;
  let rp: RelyingParty;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients: [
        testClient({
          clientId: 'web',
          redirectUris: [rp.redirectUri],
          postLogoutRedirectUris: [logoutUri],
          skipConsent: true,
        }),
      ],
      branding: { ...testConfig().branding, name: 'Acme ID' },
    });
    await rp.discover(idp.url);
  });
  afterAll(() => idp.stop());

  async function signIn(email = 'alice@example.com'): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  /** An ID token issued through this browser session, as the relying party holds it. */
  async function idTokenOf(jar: CookieJar): Promise<string> {
    const start = await rp.authorizationUrl();
    return (await rp.finish(locationOf(await jar.fetch(start), start))).idToken;
  }

  /** The same ID token's claims changed and signed again with our key: a hint the RP could hold. */
  const resigned = (idToken: string, changes: Record<string, unknown>) =>
    signJwt(idp.app.signingPool, idp.app.deps.protocol.engine.keys.current('RS256'), 'JWT', {
      ...decodeJwt(idToken),
      ...changes,
    });

  const signedIn = async (jar: CookieJar) => (await jar.fetch(`${idp.url}/api/auth/session`)).status === 200;

  const logout = (jar: CookieJar, params: Record<string, string> = {}) =>
    jar.fetch(`${idp.url}/oauth2/logout?${new URLSearchParams(params)}`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });

  /** The hidden fields of the question's form. */
  const fieldsOf = (html: string) =>
    Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    );

  const confirm = (jar: CookieJar, fields: Record<string, string>, origin = idp.url) =>
    jar.fetch(`${idp.url}/oauth2/logout/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields),
    });

  it('asks "Sign out of NAME?" on a request without hint and keeps the session; the confirmed answer signs out', async () => {
    const jar = await signIn();
    const asked = await logout(jar);
    expect(asked.status).toBe(200);
    expect(asked.headers.get('cache-control')).toBe('no-store');
    const html = await asked.text();
    expect(html).toContain('<title>Sign out · Acme ID</title>');
    expect(html).toContain('<h1>Sign out of Acme ID?</h1>');
    expect(html).toContain('Signed in as alice@example.com');
    expect(html).toContain('<form id="sign-out-form" method="post" action="/oauth2/logout/confirm">');
    expect(html).toContain('<button type="submit" class="primary" data-busy-label="Signing out…">Sign out</button>');
    expect(html).toContain('<a class="button secondary" href="/">Cancel</a>');
    // A strict Content-Security-Policy allows it: no inline script, style or handler.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i);
    expect(await signedIn(jar)).toBe(true);

    const answered = await confirm(jar, fieldsOf(html));
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('You have been signed out.');
    expect(await signedIn(jar)).toBe(false);
  });

  it('carries post_logout_redirect_uri, client_id and state through the question, and redirects after it', async () => {
    const jar = await signIn();
    const asked = await logout(jar, { client_id: 'web', post_logout_redirect_uri: logoutUri, state: 's<1>' });
    const fields = fieldsOf(await asked.text());
    expect(fields).toEqual({ post_logout_redirect_uri: logoutUri, client_id: 'web', state: 's&#60;1&#62;' });
    const answered = await confirm(jar, { post_logout_redirect_uri: logoutUri, client_id: 'web', state: 's<1>' });
    // Not a 302: a browser would hold the form's redirect to another site against form-action 'self'.
    expect(answered.status).toBe(200);
    const html = await answered.text();
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${logoutUri}?state=s%3C1%3E">`);
    expect(html).toContain(
      `<a class="button primary" href="${logoutUri}?state=s%3C1%3E">Continue to web.example.com</a>`,
    );
    expect(await signedIn(jar)).toBe(false);
  });

  it('refuses the answer from another site (the Origin rule) and keeps the session', async () => {
    const jar = await signIn();
    const forged = await confirm(jar, {}, 'https://evil.example.com');
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(await signedIn(jar)).toBe(true);
  });

  it('re-checks the redirect on the answer: an unregistered one is an error page and no sign-out', async () => {
    const jar = await signIn();
    const answered = await confirm(jar, { client_id: 'web', post_logout_redirect_uri: 'https://evil.example.com/' });
    expect(answered.status).toBe(400);
    expect(answered.headers.get('location')).toBeNull();
    expect(await signedIn(jar)).toBe(true);
  });

  it("signs out at once with a hint of the session's user and sign-in, also an expired one (§2)", async () => {
    const jar = await signIn();
    const hint = await idTokenOf(jar);
    const done = await logout(jar, { id_token_hint: hint, post_logout_redirect_uri: logoutUri, state: 'x' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${logoutUri}?state=x`);
    expect(await signedIn(jar)).toBe(false);

    const again = await signIn();
    const expired = await resigned(await idTokenOf(again), { exp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await logout(again, { id_token_hint: expired })).status).toBe(200);
    expect(await signedIn(again)).toBe(false);
  });

  it('names the application that asks, when it is known for sure: a hint we signed, or a registered return address', async () => {
    const jar = await signIn('bob@example.com');
    const earlier = await idTokenOf(jar);
    const bob = await signIn('bob@example.com');
    // A hint of another session still proves which application sent the browser.
    expect(await (await logout(bob, { id_token_hint: earlier })).text()).toContain(
      '<p class="intro">Client web asks you to sign out.</p>',
    );
    const withReturn = await logout(bob, { client_id: 'web', post_logout_redirect_uri: logoutUri });
    expect(await withReturn.text()).toContain('<p class="intro">Client web asks you to sign out.</p>');
    // A bare client_id is anyone's to write into a link: no name rests on it alone.
    expect(await (await logout(bob, { client_id: 'web' })).text()).not.toContain('asks you to sign out');
    expect(await signedIn(bob)).toBe(true);
  });

  it("asks when the hint is another user's or from an earlier sign-in", async () => {
    const bob = await signIn('bob@example.com');
    const bobsHint = await idTokenOf(bob);
    const alice = await signIn();
    const asked = await logout(alice, { id_token_hint: bobsHint });
    expect(await asked.text()).toContain('Sign out of Acme ID?');
    expect(await signedIn(alice)).toBe(true);

    // A hint without sid (issued before idp had it) is judged by its auth_time.
    const earlier = await resigned(await idTokenOf(alice), {
      sid: undefined,
      auth_time: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(await (await logout(alice, { id_token_hint: earlier })).text()).toContain('Sign out of Acme ID?');
    expect(await signedIn(alice)).toBe(true);
    // The hint travels with the answer; confirmed, the signed-in user (alice) is signed out.
    expect(fieldsOf(await (await logout(alice, { id_token_hint: bobsHint })).text())).toEqual({
      id_token_hint: bobsHint,
    });
    expect((await confirm(alice, { id_token_hint: bobsHint })).status).toBe(200);
    expect(await signedIn(alice)).toBe(false);
    expect(await signedIn(bob)).toBe(true);
  });

  it("asks when the hint is the same user's from another session, even a later one (sid)", async () => {
    const earlier = await signIn();
    const later = await signIn();
    const laterHint = await idTokenOf(later);
    expect(await (await logout(earlier, { id_token_hint: laterHint })).text()).toContain('Sign out of Acme ID?');
    expect(await signedIn(earlier)).toBe(true);
    expect((await logout(later, { id_token_hint: laterHint })).status).toBe(200);
    expect(await signedIn(later)).toBe(false);
    expect(await signedIn(earlier)).toBe(true);
  });

  it('refuses a hint that is not one of our ID tokens, and an access token as hint', async () => {
    const jar = await signIn();
    const start = await rp.authorizationUrl();
    const accessToken = (await rp.finish(locationOf(await jar.fetch(start), start))).accessToken;
    for (const hint of ['not.a.jwt', accessToken]) {
      const refused = await logout(jar, { id_token_hint: hint });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('The id_token_hint is not a valid ID token of this provider.');
    }
    expect(await signedIn(jar)).toBe(true);
  });

  it("reads the hint's audience from a list too, and asks about a hint without sid or auth_time", async () => {
    const jar = await signIn();
    const idToken = await idTokenOf(jar);
    const noAuthTime = await resigned(idToken, { sid: undefined, auth_time: undefined });
    expect(await (await logout(jar, { id_token_hint: noAuthTime })).text()).toContain('Sign out of Acme ID?');
    const listed = await resigned(idToken, { aud: ['web'] });
    const done = await logout(jar, { id_token_hint: listed, post_logout_redirect_uri: logoutUri });
    expect(done.headers.get('location')).toBe(logoutUri);
    expect(await signedIn(jar)).toBe(false);
  });

  it.each([
    [
      "a client_id other than the hint's audience",
      async (hint: string) => ({ id_token_hint: hint, client_id: 'other' }),
      'The client_id does not match the id_token_hint.',
    ],
    [
      'a redirect without hint or client_id',
      async () => ({ post_logout_redirect_uri: logoutUri }),
      'post_logout_redirect_uri needs an id_token_hint or a client_id.',
    ],
    [
      'a redirect for an unknown client',
      async () => ({ client_id: 'nobody', post_logout_redirect_uri: logoutUri }),
      'The post_logout_redirect_uri is not registered for this client.',
    ],
  ])('refuses %s with an error page, before asking anything', async (_name, params, message) => {
    const jar = await signIn();
    const refused = await logout(jar, await params(await idTokenOf(jar)));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(message);
    expect(await signedIn(jar)).toBe(true);
  });

  it('needs no question without a session', async () => {
    const done = await logout(new CookieJar(), { client_id: 'web', post_logout_redirect_uri: logoutUri });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(logoutUri);
  });
});
