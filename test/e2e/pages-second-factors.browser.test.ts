import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { authenticator as otp } from 'otplib';
import { testClient, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * Issue 12, "Done when", in Chromium with its virtual authenticator (CDP
 * WebAuthn.enable, addVirtualAuthenticator: resident keys and user
 * verification on): an authenticator app enrolled from /account, then a
 * sign-in with password + code and with a recovery code; a passkey
 * registered, then a passwordless sign-in with the button and through the
 * e-mail field's autofill (conditional UI); a user `auth.second_factor`
 * covers enrols at sign-in and reaches the relying party's callback, whose
 * openid-client sees the right amr. The server's base URL is
 * http://localhost:PORT (WebAuthn refuses an IP address) on 127.0.0.1.
 */
describe.each(databaseKinds)('second factors in the pages on %s', (kind) => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
      scope: 'openid email',
    });
    idp = await startIdp(
      kind,
      {
        users: [
          testUser({ sub: 'ada' }),
          testUser({ sub: 'bob' }),
          testUser({ sub: 'boss', role: 'admin' }),
          testUser({ sub: 'chief', role: 'admin' }),
        ],
        clients: [testClient({ clientId: 'web', redirectUris: [rp.redirectUri], skipConsent: true })],
        auth: { passwordMinLength: 8, secondFactor: 'required_for_admins', totpIssuer: null, passkeysEnabled: true },
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

  interface Visit {
    context: BrowserContext;
    page: Page;
    reports: PageReports;
    cdp: CDPSession;
    authenticatorId: string;
  }

  /** A browser profile of its own, with a platform authenticator that holds resident keys and verifies its user. */
  async function visit(): Promise<Visit> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: idp.url });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { context, page, reports, cdp, authenticatorId };
  }

  async function signIn(page: Page, email: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** The start page's Sign out, which reloads the page signed out. */
  async function signOutAtHome(page: Page) {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
  }

  const sessionAmr = async (page: Page) =>
    ((await (await page.context().request.get(`${idp.url}/api/auth/session`)).json()) as { session: { amr: string[] } })
      .session.amr;

  /** docs/ui.md, "How to check a page": nothing scrolls sideways at 360 px, and every visible field has an accessible name. */
  async function checkNarrowAndNamed(page: Page) {
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, button')]
        .filter(
          (element) =>
            (element as HTMLElement).offsetParent !== null && (element as HTMLInputElement).type !== 'hidden',
        )
        .filter(
          (element) =>
            !(element as HTMLInputElement).labels?.length &&
            !element.getAttribute('aria-label') &&
            !element.textContent?.trim(),
        )
        .map((element) => element.outerHTML),
    );
    expect(unnamed).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('enrols an authenticator app on /account, then signs in with password and code, and with a recovery code', async () => {
    const v = await visit();
    const { page } = v;
    await page.goto(`${idp.url}/login`);
    await signIn(page, 'ada@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account`);
    await expect.poll(() => page.locator('#app-state').textContent()).toBe('No authenticator app is set up.');
    expect(await page.locator('#codes-state').textContent()).toBe(
      'Recovery codes come with an authenticator app. Set one up first.',
    );

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    // The QR code is an image this server drew; the key is there as text too.
    await page.waitForFunction(() => (document.getElementById('app-qr') as HTMLImageElement).naturalWidth > 0);
    expect(await page.locator('#app-qr').getAttribute('alt')).toBe('QR code to add idp to your authenticator app');
    const secret = (await page.locator('#app-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await checkNarrowAndNamed(page);

    await page.locator('#app-code').fill('12345');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('#app-code-error').textContent()).toBe('Enter the 6 digits the app shows.');
    await page.locator('#app-code').fill(otp.generate(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.locator('#codes-list li').allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'Copy codes' }).click();
    await expect.poll(() => page.locator('#codes-status').textContent()).toBe('The codes were copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.locator('#app-state').textContent()).toBe('An authenticator app is set up.');
    expect(await page.locator('#codes-state').textContent()).toBe('10 of 10 recovery codes are left.');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, 'ada@example.com');
    await page.waitForURL((url) => url.pathname === '/login/second-factor');
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await checkNarrowAndNamed(page);
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.locator('#totp-code-error').getAttribute('data-code')).toBe('INVALID_CODE');
    // The confirmation spent this step's code; the next step's is accepted (±1 step).
    await page.getByLabel('Authentication code').fill(otp.clone({ epoch: Date.now() + 30_000 }).generate(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await sessionAmr(page)).toEqual(['pwd', 'otp']);

    await signOutAtHome(page);
    await page.goto(`${idp.url}/login`);
    await signIn(page, 'ada@example.com');
    await page.waitForURL((url) => url.pathname === '/login/second-factor');
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[3].toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => page.locator('#recovery-status').textContent())
      .toBe('You are signed in. 9 recovery codes are left.');
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account`);
    await expect.poll(() => page.locator('#codes-state').textContent()).toBe('9 of 10 recovery codes are left.');
    expect(v.reports.violations).toEqual([]);
    expect(v.reports.pageErrors).toEqual([]);
    await v.context.close();
  });

  it('registers a passkey on /account, signs in with it passwordless, through the autofill and with the button, then renames and removes it', async () => {
    const v = await visit();
    const { page } = v;
    await page.goto(`${idp.url}/login`);
    await signIn(page, 'bob@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account`);
    await expect.poll(() => page.locator('#passkeys-none').isVisible()).toBe(true);
    await page.getByLabel('Passkey name').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('#passkeys-status').textContent()).toBe('The passkey “Laptop” was added.');
    expect(await page.locator('.passkey-item .passkey-name').allTextContents()).toEqual(['Laptop']);
    expect(await page.locator('.passkey-item .hint').textContent()).toMatch(/^Created .+ · never used$/);
    const { credentials } = await v.cdp.send('WebAuthn.getCredentials', { authenticatorId: v.authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);

    // Conditional UI: the e-mail field's request is answered by the authenticator as a person picking the passkey would.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await sessionAmr(page)).toEqual(['hwk']);

    // The button, as in a browser without conditional mediation: with the autofill's request pending, the authenticator could answer that one first.
    await signOutAtHome(page);
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await page.goto(`${idp.url}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await sessionAmr(page)).toEqual(['hwk']);

    await page.goto(`${idp.url}/account`);
    await page.getByRole('button', { name: 'Rename: Laptop' }).click();
    await page.getByLabel('Passkey name', { exact: true }).first().fill('Work laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.passkey-item .passkey-name').allTextContents()).toEqual(['Work laptop']);
    expect(await page.locator('.passkey-item .hint').textContent()).toMatch(/^Created .+ · last used .+$/);
    await page.getByRole('button', { name: 'Remove: Work laptop' }).click();
    expect(await page.locator('.passkey-item p').textContent()).toBe(
      'Remove the passkey “Work laptop”? You can no longer sign in with it.',
    );
    await page.locator('.passkey-item').getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => page.locator('#passkeys-status').textContent())
      .toBe('The passkey “Work laptop” was removed.');
    await expect.poll(() => page.locator('.passkey-item').count()).toBe(0);
    expect(v.reports.violations).toEqual([]);
    expect(v.reports.pageErrors).toEqual([]);
    await v.context.close();
  });

  it('sends an admin without a factor through enrolment at sign-in to the relying party, whose ID token says pwd and otp', async () => {
    const v = await visit();
    const { page } = v;
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, 'boss@example.com');
    await page.waitForURL((url) => url.pathname === '/login/second-factor');
    expect(await page.locator('h1').textContent()).toBe('Set up two-step verification');
    await checkNarrowAndNamed(page);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#app-setup').waitFor();
    const secret = (await page.locator('#app-secret').textContent())!.replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(otp.generate(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    expect(await page.locator('#codes-list li').count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await page.locator('#who').textContent()).toBe('Signed in as boss (boss@example.com)');
    const result = rp.results.at(-1);
    if (!result || result instanceof Error) throw result ?? new Error('no sign-in at the relying party');
    expect(result.claims.amr).toEqual(['pwd', 'otp']);
    expect(v.reports.pageErrors).toEqual([]);
    await v.context.close();
  });

  it('lets the enrolment at sign-in register a passkey instead, and that passkey then signs in alone: amr pwd and hwk, then hwk', async () => {
    const v = await visit();
    const { page } = v;
    await page.goto(`${rp.url}/start`);
    await signIn(page, 'chief@example.com');
    await page.waitForURL((url) => url.pathname === '/login/second-factor');
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    const first = rp.results.at(-1);
    if (!first || first instanceof Error) throw first ?? new Error('no sign-in at the relying party');
    expect(first.claims.amr).toEqual(['pwd', 'hwk']);

    // A new browser session: the passkey signs in without the password (the autofill of /login).
    await v.context.clearCookies();
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    const second = rp.results.at(-1);
    if (!second || second instanceof Error) throw second ?? new Error('no sign-in at the relying party');
    expect(second.claims).toMatchObject({ sub: 'chief', amr: ['hwk'] });
    expect(v.reports.pageErrors).toEqual([]);
    await v.context.close();
  });
});
