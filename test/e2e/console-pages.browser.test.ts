import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testClient, testTerm, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { launchChromium, watchPage } from './support/browser.js';
import { signedInContext } from './support/console.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * The console's Groups, Clients, Terms and Events pages in Chromium, in
 * English and German at 360 px: no CSP violation, no horizontal overflow,
 * the data of the config and the database; the events' follow mode shows an
 * event recorded after the page loaded.
 */
describe.each(databaseKinds)('the admin console pages (%s)', (kind) => {
  let idp: RunningIdp;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'root', role: 'admin' }), testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      groups: [
        {
          id: 'sre',
          name: 'Site reliability',
          description: 'On call',
          upstream: [{ provider: 'github', team: 'acme/sre' }],
          members: ['alice', 'bob'],
        },
        { id: 'empty', name: 'Empty', description: null, upstream: [], members: [] },
      ],
      clients: [
        testClient({
          clientId: 'wiki',
          access: { groups: ['sre'], roles: null, secondFactor: 'required' },
          postLogoutRedirectUris: ['https://wiki.example.com/'],
        }),
        testClient({ clientId: 'cli', clientSecret: null, tokenEndpointAuthMethod: 'none' }),
      ],
      terms: [testTerm()],
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  const open = async (path: string, locale: 'en' | 'de' = 'en') => {
    const context = await signedInContext(browser, idp.url, 'root@example.com', { locale });
    const page = await context.newPage();
    const reports = await watchPage(page);
    const response = await page.goto(`${idp.url}${path}`);
    return { context, page, reports, status: response?.status() };
  };

  it.each([
    ['en', 'Groups', 'Members'],
    ['de', 'Gruppen', 'Mitglieder'],
  ] as const)('lists the groups and shows a group with its members (%s)', async (locale, heading, members) => {
    const { context, page, reports } = await open('/admin/groups', locale);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    expect(await page.locator('#groups-table thead').textContent()).toContain(members);
    const sre = page.locator('#groups-table tbody tr', { hasText: 'Site reliability' });
    expect(await sre.locator(`td[data-label="${members}"]`).textContent()).toBe('2');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await sre.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/admin/groups/sre');
    expect(await page.locator('#members-table tbody tr').count()).toBe(2);
    expect(await page.locator('.facts').textContent()).toContain('github');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: 'alice@example.com' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users/alice');
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });

  it('answers 404 with the console frame for a group that is not declared', async () => {
    const { context, page, status } = await open('/admin/groups/nope');
    expect(status).toBe(404);
    expect(await page.getByRole('alert').getAttribute('data-code')).toBe('GROUP_NOT_FOUND');
    await context.close();
  });

  it.each(['en', 'de'] as const)('shows the clients read-only and never a secret (%s)', async (locale) => {
    const { context, page, reports } = await open('/admin/clients', locale);
    expect(await page.locator('#clients-table tbody tr').count()).toBe(2);
    expect(await page.locator('main').textContent()).toContain(locale === 'en' ? 'Public' : 'Öffentlich');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: 'Client wiki' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/clients/wiki');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('https://wiki.example.com/callback');
    expect(text).toContain('https://wiki.example.com/');
    expect(text).toContain('sre');
    expect(text).not.toContain('secret-of-wiki');
    expect(await page.content()).not.toContain('secret-of-wiki');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('answers 404 for a client that is not declared', async () => {
    const { context, page, status } = await open('/admin/clients/nope');
    expect(status).toBe(404);
    expect(await page.getByRole('alert').getAttribute('data-code')).toBe('CLIENT_NOT_FOUND');
    await context.close();
  });

  it.each([
    ['en', 'Accepted', '3'],
    ['de', 'Akzeptiert', '3'],
  ] as const)('shows each term with its acceptance counts (%s)', async (locale, accepted, pending) => {
    const { context, page, reports } = await open('/admin/terms', locale);
    const row = page.locator('#terms-table tbody tr', { hasText: 'tos' });
    expect(await row.locator(`td[data-label="${accepted}"]`).textContent()).toBe('0');
    expect(await row.locator('td').nth(4).textContent()).toBe(pending);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it.each(['en', 'de'] as const)('filters the events by type and user (%s)', async (locale) => {
    await signedInContext(browser, idp.url, 'bob@example.com').then((c) => c.close());
    const { context, page, reports } = await open('/admin/events', locale);
    expect(await page.locator('#events-table tbody tr').count()).toBeGreaterThan(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.locator('#events-type').selectOption('sign_in.succeeded');
    await page.locator('#events-actor').fill('bob');
    await page.locator('.console-filters button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get('actor') === 'bob');
    const types = await page.locator('#events-table tbody td.mono:nth-child(2)').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['sign_in.succeeded']));
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('follows new events without a reload', async () => {
    const { context, page, reports } = await open('/admin/events?actor=alice');
    await expect.poll(() => page.locator('#events-follow').isVisible()).toBe(true);
    const before = await page.locator('#events-table tbody tr').count();
    await page.getByRole('button', { name: 'Follow new events' }).click();
    expect(await page.getByRole('button', { name: 'Follow new events' }).getAttribute('aria-pressed')).toBe('true');
    await signedInContext(browser, idp.url, 'alice@example.com').then((c) => c.close());
    await expect.poll(() => page.locator('#events-table tbody tr').count(), { timeout: 10_000 }).toBe(before + 1);
    expect(await page.locator('#events-table').isVisible()).toBe(true);
    expect(await page.locator('#events-table tbody tr').first().textContent()).toContain('sign_in.succeeded');
    expect(await page.locator('#events-follow-status').textContent()).toContain('1 new event');
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });
});
