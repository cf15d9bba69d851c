import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, type TestApp } from '../support/test-app.js';
import { browserAt } from '../support/second-factor-client.js';
import { UNAUTHORIZED } from '../support/spec-shapes.js';

/**
 * The routes behind the second-factor pages (src/http/routes/page-routes.ts):
 * /login/second-factor for each state of the cookie's sign-in, the QR code
 * of a pending authenticator-app enrolment, and the @simplewebauthn/browser
 * modules served from the installed package.
 */
describe.each(databaseKinds)('the second-factor page routes on %s', (kind) => {
  let t: TestApp;
  let addresses = 0;
  const browser = () => browserAt(t, `10.4.0.${++addresses}`);
  const returnTo = '/oauth2/authorize?client_id=web';
  const secondFactorPage = `/login/second-factor?${new URLSearchParams({ return_to: returnTo })}`;

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
      auth: { ...base.auth, secondFactor: 'required_for_admins' },
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
    });
    await seedUser(t, { sub: 'plain', email: 'plain@example.com' });
    await seedUser(t, { sub: 'boss', email: 'boss@example.com', role: 'admin' });
  });
  afterAll(() => t.destroy());

  it('sends a browser without a session to /login, and a signed-in one on to return_to', async () => {
    const none = await browser().call('GET', secondFactorPage);
    expect(none.statusCode).toBe(302);
    expect(none.headers.location).toBe(`/login?${new URLSearchParams({ return_to: returnTo })}`);
    const b = browser();
    const { cookie } = await b.login('plain@example.com');
    const signedIn = await b.call('GET', secondFactorPage, cookie);
    expect(signedIn.statusCode).toBe(302);
    expect(signedIn.headers.location).toBe(returnTo);
    expect((await b.call('GET', '/login/second-factor', cookie)).headers.location).toBe('/');
    const elsewhere = await b.call('GET', '/login/second-factor?return_to=https%3A%2F%2Fevil.example', cookie);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.payload).toContain('Invalid link');
  });

  it('shows the enrolment to the pending sign-in of a user who must enrol, in their language', async () => {
    const b = browser();
    const { cookie, body } = await b.login('boss@example.com');
    expect(body.enrolment_required).toBe(true);
    const page = await b.call('GET', `${secondFactorPage}&locale=de`, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.payload).toContain('<html lang="de">');
    expect(page.payload).toContain('Bestätigung in zwei Schritten einrichten');
    expect(page.payload).toContain('Anmeldung als boss@example.com');
  });

  it('draws the QR code of the pending enrolment as SVG, for its session only', async () => {
    const b = browser();
    const { cookie } = await b.login('boss@example.com');
    const before = await b.call('GET', '/ui/authenticator-app-qr.svg', cookie);
    expect(before.statusCode).toBe(404);
    expect(before.json()).toMatchObject({ code: 'TOTP_NOT_PENDING' });
    expect((await b.call('POST', '/api/user/totp', cookie)).statusCode).toBe(200);
    const qr = await b.call('GET', '/ui/authenticator-app-qr.svg', cookie);
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(qr.headers['cache-control']).toBe('no-store');
    expect(qr.payload).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // The secret is in the picture, not in the markup as text.
    expect(qr.payload).not.toMatch(/otpauth|secret=/);
    expect((await b.call('GET', '/ui/authenticator-app-qr.svg')).json()).toEqual(UNAUTHORIZED);
  });

  it('serves the @simplewebauthn/browser modules, and nothing else of node_modules', async () => {
    const b = browser();
    const index = await b.call('GET', '/ui/vendor/webauthn/index.js');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/javascript/);
    expect(index.payload).toContain("export * from './methods/startRegistration.js';");
    expect(index.payload).not.toContain('sourceMappingURL');
    expect((await b.call('GET', '/ui/vendor/webauthn/methods/startAuthentication.js')).statusCode).toBe(200);
    for (const path of [
      '/ui/vendor/webauthn/index.d.ts',
      '/ui/vendor/webauthn/../package.json',
      '/ui/vendor/webauthn/%2E%2E/%2E%2E/server/esm/index.js',
      '/ui/vendor/webauthn/nothing.js',
    ]) {
      expect((await b.call('GET', path)).statusCode, path).toBe(404);
    }
  });
});
