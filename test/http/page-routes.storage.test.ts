import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';

/**
 * The built-in pages' routes (src/http/routes/page-routes.ts): what each
 * answers for which request, and the locale it is written in. Rendering
 * itself: test/web/pages/; in a browser: test/e2e/pages*.test.ts.
 */
describe("the built-in pages' routes", () => {
  let t: TestApp;
  let alice: string;
  let greta: string;
  const authorize = `/oauth2/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: 'notes',
    redirect_uri: 'https://notes.example.com/cb',
    scope: 'openid email',
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })}`;

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      branding: { name: 'Acme', logoUrl: null, primaryColor: '#1f6feb' },
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'notes', name: 'Acme Notes', redirectUris: ['https://notes.example.com/cb'] }),
        testClient({
          clientId: 'wiki',
          name: 'Acme Wiki',
          redirectUris: ['https://wiki.example.com/cb'],
          access: { groups: null, roles: ['admin'], secondFactor: null },
        }),
      ],
    });
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'greta', locale: 'de' });
    alice = await signIn(t, 'alice@example.com');
    greta = await signIn(t, 'greta@example.com');
  });
  afterAll(() => t.destroy());

  const page = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    inject(t, 'GET', url, cookie, undefined, headers);

  it('name the application of the authorization request behind return_to, and nothing for another path', async () => {
    const login = await page(`/login?${new URLSearchParams({ return_to: authorize })}`);
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    expect(login.payload).toContain('<h1>Sign in to Acme Notes</h1>');
    expect((await page('/login?return_to=%2Faccount')).payload).toContain('<h1>Sign in</h1>');
    expect((await page(`/register?${new URLSearchParams({ return_to: authorize })}`)).statusCode).toBe(404);
  });

  it.each(['/login', '/register', '/consent', '/access-denied'])(
    '%s refuses a return_to to another site with a 400 page',
    async (path) => {
      const response = await page(`${path}?return_to=%2F%2Fevil.example`);
      expect(response.statusCode).toBe(400);
      expect(response.payload).toContain('<h1>Invalid link</h1>');
    },
  );

  it('/consent: signs in first without a session, describes the request with one, and refuses what is no request', async () => {
    const query = new URLSearchParams({ return_to: authorize, locale: 'de' });
    const anonymous = await page(`/consent?${query}`);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/login?${new URLSearchParams({ return_to: authorize, locale: 'de' })}`);
    const described = await page(`/consent?${new URLSearchParams({ return_to: authorize })}`, alice);
    expect(described.statusCode).toBe(200);
    expect(described.payload).toContain('You will return to notes.example.com.');
    const notARequest = await page('/consent?return_to=%2Faccount', alice);
    expect(notARequest.statusCode).toBe(400);
    expect(notARequest.payload).toContain('data-code="INVALID_RETURN_TO"');
    expect((await page('/consent', alice)).statusCode).toBe(400);
  });

  it('/access-denied: signs in first without a session, names user and application, and refuses what is no request', async () => {
    const wiki = authorize
      .replace('client_id=notes', 'client_id=wiki')
      .replace('notes.example.com', 'wiki.example.com');
    const anonymous = await page(`/access-denied?${new URLSearchParams({ return_to: wiki })}`);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/login?${new URLSearchParams({ return_to: wiki })}`);
    const denied = await page(`/access-denied?${new URLSearchParams({ return_to: wiki, locale: 'de' })}`, alice);
    expect(denied.statusCode).toBe(200);
    expect(denied.headers['cache-control']).toBe('no-store');
    expect(denied.payload).toContain('<h1>alice@example.com hat keinen Zugriff auf Acme Wiki</h1>');
    expect(denied.payload).toContain(`href="${`${wiki}&access_denied=true`.replaceAll('&', '&#38;')}"`);
    // A user who may use the application now goes straight back to the request.
    const allowed = await page(`/access-denied?${new URLSearchParams({ return_to: authorize })}`, alice);
    expect(allowed.statusCode).toBe(302);
    expect(allowed.headers.location).toBe(authorize);
    const notARequest = await page('/access-denied?return_to=%2Faccount', alice);
    expect(notARequest.statusCode).toBe(400);
    expect(notARequest.payload).toContain('data-code="INVALID_RETURN_TO"');
    expect((await page('/access-denied', alice)).statusCode).toBe(400);
  });

  it.each(['/terms', '/access-denied'])(
    '%s without return_to says that it was opened without a request, not that the link leads elsewhere',
    async (path) => {
      const response = await page(path, alice);
      expect(response.statusCode).toBe(400);
      expect(response.payload).toContain('data-code="INVALID_RETURN_TO"');
      expect(response.payload).toContain('This page was opened without a valid request.');
      expect(response.payload).not.toContain('<h1>Invalid link</h1>');
    },
  );

  it('/consent asked again says what the application had and what it asks for now', async () => {
    const { storage } = t.database;
    await storage.repositories.consents.grant(storage.db, 'alice', 'notes', ['openid'], Date.now());
    const again = await page(`/consent?${new URLSearchParams({ return_to: authorize })}`, alice);
    expect(again.payload).toContain('Acme Notes already has access to your account. It now also asks to:');
    expect(again.payload).toContain('<li>See your email address</li>');
    expect(again.payload).toContain('Already allowed: Sign you in with your account');
    await storage.repositories.consents.revoke(storage.db, 'alice', 'notes');
    expect((await page(`/consent?${new URLSearchParams({ return_to: authorize })}`, alice)).payload).toContain(
      'Acme Notes will be able to:',
    );
  });

  it('/ui/bundle/ serves only what the build bundled: nothing when run from src/', async () => {
    expect((await page('/ui/bundle/login.js')).statusCode).toBe(404);
  });

  it('the page of an unknown address offers a way onward', async () => {
    const missing = await page('/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(missing.payload).toContain('<a class="button primary" href="/">Go to the start page</a>');
  });

  it('/account: a sign-in that comes back without a session, the account with one', async () => {
    const anonymous = await page('/account');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe('/login?return_to=%2Faccount');
    const account = await page('/account', alice);
    expect(account.payload).toContain('Signed in as alice@example.com');
  });

  it("write the page in ?locale=, else the profile's locale, else Accept-Language, else the default", async () => {
    const lang = (payload: string) => /<html lang="([^"]+)">/.exec(payload)?.[1];
    expect(lang((await page('/account', greta)).payload)).toBe('de');
    expect(lang((await page('/account?locale=en', greta)).payload)).toBe('en');
    expect(lang((await page('/account', greta, { 'accept-language': 'en' })).payload)).toBe('de');
    expect(lang((await page('/account', alice, { 'accept-language': 'de-CH, en;q=0.5' })).payload)).toBe('de');
    expect(lang((await page('/', undefined, { 'accept-language': 'fr' })).payload)).toBe('en');
    expect(lang((await page('/no-such-page', undefined, { 'accept-language': 'de' })).payload)).toBe('de');
  });

  it('/verify-email and /reset-password open at the form the link needs', async () => {
    expect((await page('/verify-email?token=abc')).payload).toContain('<div id="verifying" aria-busy="true">');
    expect((await page('/reset-password')).payload).toContain('This page needs the link from the email we sent you.');
  });

  it('/ui/theme.css carries branding.primary_color, cacheable under its versioned address', async () => {
    const login = await page('/login');
    const href = /<link rel="stylesheet" href="(\/ui\/theme\.css\?v=[0-9a-f]+)">/.exec(login.payload)?.[1];
    expect(href).toBeDefined();
    const css = await page(href!);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=86400');
    expect(css.payload).toContain('--accent: #1f6feb;');
  });
});
