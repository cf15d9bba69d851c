import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { authenticator as otp } from 'otplib';
import { testClient, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { launchChromium, watchPage } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * Issue 23, "Done when": a per-client second factor makes a password-only
 * user enrol before consent. The client has `access: { second_factor:
 * required }`; the user has no factor and auth.second_factor is optional, so
 * the password alone signs in, and the authorization request sends the
 * browser to the step-up on /login/second-factor. Continue (by keyboard)
 * starts it, the authenticator app is set up, consent follows, and the
 * openid-client relying party sees `otp` in the ID token's amr.
 */
describe.each(databaseKinds)("a client's second factor in Chromium on %s", (kind) => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'grafana',
      clientSecret: testClient({ clientId: 'grafana' }).clientSecret,
      scope: 'openid email',
    });
    idp = await startIdp(
      kind,
      {
        users: [testUser({ sub: 'ada' }), testUser({ sub: 'bob' })],
        clients: [
          testClient({
            clientId: 'grafana',
            name: 'Grafana',
            redirectUris: [rp.redirectUri],
            access: { groups: null, roles: null, secondFactor: 'required' },
          }),
        ],
      },
      { hostname: 'localhost' },
    );
    await rp.discover(idp.url);
    await rp.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await idp?.stop();
  });

  async function signIn(page: Page, email: string) {
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('makes a password-only user set up an authenticator app before consent; the ID token says pwd and otp', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    await signIn(page, 'ada@example.com');

    await page.waitForURL(
      (url) => url.pathname === '/login/second-factor' && url.searchParams.get('step_up') === 'true',
    );
    expect(await page.locator('h1').textContent()).toBe('Grafana asks for a second factor');
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The page took focus to its heading; the keyboard reaches Continue and presses it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('page-heading');
    const before = (await context.cookies()).find((cookie) => cookie.name === 'session')?.value;
    await page.getByRole('button', { name: 'Continue' }).focus();
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    expect(await page.locator('p.intro').textContent()).toBe(
      'Grafana asks for a second step when you sign in. Set one up now to continue: an authenticator app on your phone, or a passkey.',
    );
    // The step-up renewed the session: the value from before is dead.
    const after = (await context.cookies()).find((cookie) => cookie.name === 'session')?.value;
    expect(after).not.toBe(before);

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#app-setup').waitFor();
    const secret = (await page.locator('#app-secret').textContent())!.replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(otp.generate(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'I have saved them' }).click();

    // Back through the authorization request: the step passes now, and consent follows.
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await page.locator('#who').textContent()).toBe('Signed in as ada (ada@example.com)');
    const result = rp.results.at(-1);
    if (!result || result instanceof Error) throw result ?? new Error('no sign-in at the relying party');
    expect(result.claims.amr).toEqual(['pwd', 'otp']);
    expect(reports.pageErrors).toEqual([]);
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('starts again at /login, back to the same request, when the session ended before Continue', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, 'bob@example.com');
    await page.waitForURL((url) => url.pathname === '/login/second-factor');
    // Another tab signed out.
    await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST' }));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toMatch(/^\/oauth2\/authorize\?/);
    await context.close();
  });
});
