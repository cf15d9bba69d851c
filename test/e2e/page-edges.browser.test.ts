import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authenticator as otp } from 'otplib';
import { testClient } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { seedUser } from '../support/test-app.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * Issue 27, "Pages, rough edges": each of the smaller faults of the
 * built-in pages that a person meets, driven in Chromium (with its virtual
 * authenticator for the passkeys) against the real server. The base URL is
 * http://localhost:PORT: browsers refuse WebAuthn on an IP address.
 */
describe.each(databaseKinds)('the pages’ rough edges on %s', (kind) => {
  let idp: RunningIdp;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startIdp(
      kind,
      {
        clients: [testClient({ clientId: 'web', name: 'Acme Notes' })],
        auth: { passwordMinLength: 8, secondFactor: 'optional', totpIssuer: null, passkeysEnabled: true },
      },
      { hostname: 'localhost' },
    );
    // Database-managed users: a config user's password and profile are the file's.
    for (const sub of ['dora', 'erin', 'finn']) await seedUser(idp, { sub });
    await seedUser(idp, { sub: 'gus', name: 'Gus Grissom' });
    await seedUser(idp, { sub: 'hank' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  interface Visit {
    context: BrowserContext;
    page: Page;
    reports: PageReports;
  }

  /** A browser profile of its own, with a platform authenticator that holds resident keys and verifies its user. */
  async function visit(options: { authenticator: boolean } = { authenticator: true }): Promise<Visit> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    if (!options.authenticator) return { context, page, reports };
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { context, page, reports };
  }

  async function signIn(page: Page, email: string) {
    await page.goto(`${idp.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** A JSON API call from the page, with its cookies and Origin, as the pages' scripts make them. */
  function callFromPage(page: Page, method: string, path: string, body?: unknown) {
    return page.evaluate(
      async ([m, p, b]) => {
        const response = await fetch(p, {
          method: m,
          headers: b === undefined ? {} : { 'content-type': 'application/json' },
          body: b === undefined ? undefined : JSON.stringify(b),
        });
        return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
      },
      [method, path, body] as const,
    );
  }

  it('says that the current password is wrong, and clears an earlier outcome on the next action', async () => {
    const { context, page, reports } = await visit();
    await signIn(page, 'dora@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account`);
    await page.locator('#profile-form[aria-busy="false"]').waitFor();
    await page.getByLabel('Full name').fill('Dora Explorer');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('#profile-status').textContent()).toBe('Your changes were saved.');

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('another password 123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => page.locator('#current-password-error').textContent(), { timeout: 15_000 })
      .toBe('The current password is incorrect.');
    expect(await page.locator('#password-summary').textContent()).toBe('The current password is incorrect.');
    // The profile's "saved" belongs to the action before: it does not stay beside the new one.
    expect(await page.locator('#profile-status').textContent()).toBe('');
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('says that a reset link cannot be used before anyone types a new password', async () => {
    const { context, page } = await visit();
    await page.goto(`${idp.url}/reset-password?token=${'x'.repeat(43)}`);
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Request a new link' }).waitFor();
    await context.close();
  });

  it('says that the device already holds a passkey, and offers no other factor once a recovery code signed in', async () => {
    const { context, page, reports } = await visit();
    await signIn(page, 'erin@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account`);
    await page.getByLabel('Passkey name').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('#passkeys-status').textContent()).toBe('The passkey “Laptop” was added.');
    // The same authenticator again: the browser refuses it (excludeCredentials), and the page says why.
    await page.getByLabel('Passkey name').fill('Laptop again');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect
      .poll(() => page.locator('#passkey-form .summary').textContent())
      .toBe('This device already holds a passkey for your account.');
    expect(await page.locator('#passkey-list li').count()).toBe(1);

    const begun = await callFromPage(page, 'POST', '/api/user/totp');
    const { secret } = begun.body as { secret: string };
    const confirmed = await callFromPage(page, 'POST', '/api/user/totp/confirm', { code: otp.generate(secret) });
    const [recoveryCode] = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
    await context.close();

    // Another browser, whose passkey autofill cannot sign in before the password does.
    const other = await visit({ authenticator: false });
    await signIn(other.page, 'erin@example.com');
    await other.page.waitForURL((url) => url.pathname === '/login/second-factor');
    await other.page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await other.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await other.page.getByLabel('Recovery code').fill(recoveryCode);
    await other.page.getByRole('button', { name: 'Verify' }).click();
    await other.page.getByRole('link', { name: 'Continue' }).waitFor();
    // Signed in: nothing on the page still offers to sign in another way.
    expect(await other.page.getByRole('button', { name: 'Use a passkey' }).isVisible()).toBe(false);
    expect(await other.page.locator('.divider').isVisible()).toBe(false);
    expect([...reports.violations, ...other.reports.violations]).toEqual([]);
    await other.context.close();
  });

  it('asks before revoking an application’s access', async () => {
    const { context, page } = await visit();
    const { storage } = idp.database;
    const { consents } = storage.repositories;
    await consents.grant(storage.db, 'finn', 'web', ['openid', 'email'], Date.now());
    await signIn(page, 'finn@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/account#apps`);
    await page.getByRole('button', { name: 'Revoke access of Acme Notes' }).click();
    await page.getByText('Revoke the access of Acme Notes?').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await consents.find(storage.db, 'finn', 'web')).not.toBeNull();
    await page.getByRole('button', { name: 'Revoke access of Acme Notes' }).click();
    await page.getByRole('button', { name: 'Revoke access', exact: true }).click();
    await expect.poll(() => page.locator('#apps-status').textContent()).toBe('Acme Notes no longer has access.');
    expect(await consents.find(storage.db, 'finn', 'web')).toBeNull();
    await context.close();
  });

  it('names the remembered accounts, and forgets one on request', async () => {
    const { context, page, reports } = await visit({ authenticator: false });
    await signIn(page, 'gus@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${idp.url}/select-account?return_to=%2Faccount`);
    const choice = page.getByRole('button', { name: 'Continue as Gus Grissom (gus@example.com)' });
    await choice.waitFor();
    expect(await choice.textContent()).toBe('Gus Grissomgus@example.com');
    await page.getByRole('button', { name: 'Forget Gus Grissom (gus@example.com) on this device' }).click();
    await page.locator('#accounts').waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.locator('#login-status').textContent())
      .toBe('Gus Grissom was forgotten on this device.');
    // Forgetting the signed-in account signed this browser out.
    expect((await page.context().request.get(`${idp.url}/api/auth/session`)).status()).toBe(401);
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('wraps the authenticator app’s key between its groups of four, never inside one', async () => {
    const { context, page } = await visit({ authenticator: false });
    await signIn(page, 'hank@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    for (const width of [320, 360, 400]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(`${idp.url}/account`);
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await expect.poll(() => page.locator('#app-secret').textContent()).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
      // Each group's characters lie on one line; the key as a whole needs several at this width.
      const lines = await page.evaluate(() => {
        const code = document.getElementById('app-secret')!;
        const text = code.textContent ?? '';
        const tops = (start: number, end: number) => {
          const range = document.createRange();
          const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
          let offset = 0;
          const set = new Set<number>();
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const length = node.textContent?.length ?? 0;
            for (let i = Math.max(start, offset); i < Math.min(end, offset + length); i++) {
              range.setStart(node, i - offset);
              range.setEnd(node, i - offset + 1);
              set.add(Math.round(range.getBoundingClientRect().top));
            }
            offset += length;
          }
          return set.size;
        };
        const groups = [...text.matchAll(/\S+/g)].map((m) => tops(m.index, m.index + m[0].length));
        return { groups, whole: tops(0, text.length) };
      });
      expect(lines.groups.every((count) => count === 1)).toBe(true);
      expect(lines.whole).toBeGreaterThan(1);
    }
    await context.close();
  });
});
