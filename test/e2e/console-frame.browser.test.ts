import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { launchChromium, watchPage } from './support/browser.js';
import { signedInContext } from './support/console.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * The console's frame in Chromium: who gets in (an admin), who is sent to
 * sign in (nobody signed in, back to the address asked for), who gets a 403
 * page (a user), the navigation, and the users list with its filters.
 */
describe.each(databaseKinds)('the admin console frame (%s)', (kind) => {
  let idp: RunningIdp;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'root', role: 'admin' }), testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  it('sends a signed-out person to the sign-in page and back to the console', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${idp.url}/admin/users?role=admin`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/admin/users?role=admin');
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users');
    await expect.poll(() => page.locator('#users-table tbody tr').count()).toBe(1);
    await context.close();
  });

  it.each([
    ['en', 'Overview', 'Sign-ins per day, last 30 days'],
    ['de', 'Übersicht', 'Anmeldungen pro Tag, letzte 30 Tage'],
  ] as const)(
    'draws the Overview (%s): sign-ins per day as SVG, failed sign-ins, sessions, last apply',
    async (locale, heading, chart) => {
      const day = 86_400_000;
      const events = idp.app.storage.repositories.events;
      const at = (daysAgo: number) => Date.now() - daysAgo * day;
      const record = (type: 'sign_in.succeeded' | 'sign_in.failed', time: number) => ({
        time,
        type,
        actor: 'alice',
        subject: 'alice',
        clientAddress: null,
        clientId: null,
        detail: {},
      });
      if (locale === 'en')
        await events.appendMany(idp.database.tx, [
          record('sign_in.succeeded', at(3)),
          record('sign_in.succeeded', at(3)),
          record('sign_in.succeeded', at(40)),
          record('sign_in.failed', at(1)),
        ]);
      const context = await signedInContext(browser, idp.url, 'root@example.com', { locale });
      const page = await context.newPage();
      const reports = await watchPage(page);
      await page.goto(`${idp.url}/admin`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
      expect(await page.locator('#sign-in-chart title#chart-title').textContent()).toBe(chart);
      expect(await page.locator('#sign-in-chart rect.bar').count()).toBe(30);
      // Two sign-ins 3 days ago (the one 40 days ago is outside), plus the sign-ins of the tests so far today.
      const titles = await page.locator('#sign-in-chart rect.bar title').allTextContents();
      const threeDaysAgo = new Date(at(3)).toISOString().slice(0, 10);
      expect(titles).toContain(`${threeDaysAgo}: 2`);
      expect(Number(await page.locator('#figure-failed').textContent())).toBeGreaterThanOrEqual(1);
      expect(Number(await page.locator('#figure-sessions').textContent())).toBeGreaterThanOrEqual(1);
      expect(await page.locator('#figure-last-apply').textContent()).toMatch(/UTC$/);
      // The config-drift job ran at start: the database matches the file the server applied.
      expect(await page.locator('#overview-drift p').textContent()).toMatch(
        locale === 'de'
          ? /^Die Datenbank entspricht der Konfigurationsdatei\. Geprüft .+ UTC\.$/
          : /^The database matches the config file\. Checked .+ UTC\.$/,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      expect(reports.violations).toEqual([]);
      await context.close();
    },
  );

  it('shows a user who is no admin a 403 page', async () => {
    const context = await signedInContext(browser, idp.url, 'alice@example.com');
    const page = await context.newPage();
    const reports = await watchPage(page);
    const response = await page.goto(`${idp.url}/admin/users`);
    expect(response?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This page is for administrators');
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it.each([
    ['en', 'Users', 'Search', '3 users'],
    ['de', 'Benutzer', 'Suche', '3 Benutzer'],
  ] as const)(
    'lists and filters the users (%s) at 360 px without overflow or CSP violation',
    async (locale, nav, search, count) => {
      const context = await signedInContext(browser, idp.url, 'root@example.com', { locale });
      const page = await context.newPage();
      const reports = await watchPage(page);
      await page.goto(`${idp.url}/admin/users`);
      expect(await page.locator('html').getAttribute('lang')).toBe(locale);
      const navigation = page.getByRole('navigation', { name: locale === 'en' ? 'Admin console' : 'Admin-Konsole' });
      expect(await navigation.getByRole('link', { name: nav }).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('#users-count').textContent()).toBe(count);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await page.getByLabel(search).fill('ali');
      await page.locator('.console-filters button[type="submit"]').click();
      await page.waitForURL((url) => url.searchParams.get('q') === 'ali');
      expect(await page.locator('#users-table tbody tr').count()).toBe(1);
      expect(await page.locator('#users-table tbody').textContent()).toContain('alice@example.com');
      expect(reports.violations).toEqual([]);
      expect(reports.pageErrors).toEqual([]);
      await context.close();
    },
  );
});
