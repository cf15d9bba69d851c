import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { launchChromium, watchPage } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * The first admin in Chromium (docs/cli-admin.md, "The first admin"): the
 * link's form creates a database admin, signs them in and opens the
 * console; then the attacks: the same link again, a guessed or expired
 * token, two setups at once (one admin), a setup after an admin appeared.
 */
describe.each(databaseKinds)('the first admin (%s)', (kind) => {
  let idp: RunningIdp;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'alice' })],
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  it('creates the admin from the link, signs them in and opens the console; the link then is 404', async () => {
    const token = await idp.app.deps.admin.firstAdmin.issue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    expect(await idp.app.storage.repositories.firstAdminTokens.find(idp.database.tx, token ?? '')).toBeNull();
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      locale: 'de',
      extraHTTPHeaders: { 'accept-language': 'de' },
    });
    const page = await context.newPage();
    const reports = await watchPage(page);
    await page.goto(`${idp.url}/setup?token=${token}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Den ersten Admin anlegen');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByLabel('E-Mail').fill('first@example.com');
    // The password policy applies: the browser's own check is bypassed to reach the server's.
    await page.locator('#setup-password').evaluate((input) => input.removeAttribute('minlength'));
    await page.getByLabel('Neues Passwort').fill('short');
    await page.getByRole('button', { name: 'Admin anlegen und anmelden' }).click();
    expect(await page.getByRole('alert').getAttribute('data-code')).toBe('PASSWORD_TOO_SHORT');
    await page.getByLabel('Neues Passwort').fill('a long enough password');
    await page.getByRole('button', { name: 'Admin anlegen und anmelden' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Übersicht');
    await page.getByRole('link', { name: 'Benutzer' }).click();
    expect(await page.locator('#users-table').textContent()).toContain('first@example.com');
    const admin = await idp.app.storage.repositories.users.findLiveByEmail(idp.database.tx, 'first@example.com');
    expect(admin).toMatchObject({ role: 'admin', managedBy: 'database', emailVerified: true });
    expect(reports.violations).toEqual([]);

    const replay = await page.goto(`${idp.url}/setup?token=${token}`);
    expect(replay?.status()).toBe(404);
    const posted = await page.request.post(`${idp.url}/setup`, {
      form: { token: token ?? '', email: 'second@example.com', password: 'a long enough password' },
      headers: { origin: idp.url },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(404);
    expect(await idp.app.deps.admin.firstAdmin.issue()).toBeNull();
    await context.close();
    // No admin again, for the tests below.
    await idp.app.storage.repositories.users.update(idp.database.tx, admin?.sub ?? '', { role: 'user' });
  });

  it('refuses a guessed, an expired and a cross-origin setup', async () => {
    const context = await browser.newContext();
    expect((await context.request.get(`${idp.url}/setup?token=guessed`)).status()).toBe(404);
    expect((await context.request.get(`${idp.url}/setup`)).status()).toBe(404);
    await idp.app.storage.repositories.firstAdminTokens.insert(idp.database.tx, {
      tokenHash: hashOf('expired-token'),
      createdAt: Date.now() - 2 * 3_600_000,
      expiresAt: Date.now() - 3_600_000,
    });
    expect((await context.request.get(`${idp.url}/setup?token=expired-token`)).status()).toBe(404);
    const expired = await context.request.post(`${idp.url}/setup`, {
      form: { token: 'expired-token', email: 'late@example.com', password: 'a long enough password' },
      headers: { origin: idp.url },
      maxRedirects: 0,
    });
    expect(expired.status()).toBe(404);
    const token = await idp.app.deps.admin.firstAdmin.issue();
    const foreign = await context.request.post(`${idp.url}/setup`, {
      form: { token: token ?? '', email: 'evil@example.com', password: 'a long enough password' },
      headers: { origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(403);
    expect(await idp.app.storage.repositories.users.findLiveByEmail(idp.database.tx, 'evil@example.com')).toBeNull();
    await context.close();
  });

  it('creates one admin of two setups at once, with two links', async () => {
    const tokens = [await idp.app.deps.admin.firstAdmin.issue(), await idp.app.deps.admin.firstAdmin.issue()];
    const context = await browser.newContext();
    const answers = await Promise.all(
      tokens.map((token, i) =>
        context.request.post(`${idp.url}/setup`, {
          form: { token: token ?? '', email: `racer${i}@example.com`, password: 'a long enough password' },
          headers: { origin: idp.url },
          maxRedirects: 0,
        }),
      ),
    );
    expect(answers.map((a) => a.status()).sort()).toEqual([303, 404]);
    const admins = await idp.app.storage.repositories.users.list(idp.database.tx, {
      role: 'admin',
      includeDeleted: false,
      page: 1,
      pageSize: 10,
    });
    expect(admins.total).toBe(1);
    await context.close();
  });
});
