import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testClient, testUser } from '../support/config-fixture.js';
import type { GroupConfig } from '../../src/config/types.js';
import { launchChromium, watchPage } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const group = (id: string, name: string): GroupConfig => ({ id, name, description: null, upstream: [], members: [] });

/**
 * The groups in Chromium with an openid-client relying party: the consent
 * page names the groups an app asking for the groups scope will see, the
 * app gets them (ID token and userinfo), and /account lists them, each
 * once with its sources, in a page that fits 360 px and runs clean under
 * its policy.
 */
describe('the groups on the consent page and /account in Chromium', () => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'grafana',
      clientSecret: testClient({ clientId: 'grafana' }).clientSecret,
      scope: 'openid email groups',
    });
    const groups = [group('sre', 'Site reliability'), group('dev', 'Developers'), group('qa', 'Quality')];
    idp = await startIdp('sqlite', {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'alice' })],
      groups,
      clients: [
        testClient({
          clientId: 'grafana',
          name: 'Grafana',
          redirectUris: [rp.redirectUri],
          scopes: ['openid', 'email', 'groups'],
        }),
      ],
    });
    // The groups and memberships as apply, the admin API and an upstream sign-in store them.
    const repository = idp.app.storage.repositories.groups;
    const now = Date.now();
    for (const { members: _members, ...record } of groups)
      await repository.save(idp.database.tx, { ...record, createdAt: now, updatedAt: now });
    await repository.addMemberships(
      idp.database.tx,
      [
        { groupId: 'sre', sub: 'alice', source: 'config', provider: null },
        { groupId: 'dev', sub: 'alice', source: 'database', provider: null },
        { groupId: 'dev', sub: 'alice', source: 'upstream', provider: 'corp' },
      ],
      now,
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

  async function signIn(page: Page) {
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('names the groups on the consent page, and the app gets them in the ID token and userinfo', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    await page.goto(`${rp.url}/start`);
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/consent');
    const groupsScope = page.getByRole('listitem').filter({ hasText: 'See which groups you are in' });
    await expect.poll(() => groupsScope.textContent()).toContain('Your groups: Developers, Site reliability');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // Keyboard: Allow is reached with Tab and pressed with Enter.
    await page.getByRole('button', { name: 'Deny' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    const result = rp.results.at(-1);
    if (!result || result instanceof Error) throw result ?? new Error('no sign-in');
    expect(result.scope).toBe('openid email groups');
    expect(result.claims.groups).toEqual(['dev', 'sre']);
    expect(result.userinfo.groups).toEqual(['dev', 'sre']);
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });

  it.each([
    ['en', 'Groups', ['Developers', 'Added by an administrator · From your sign-in provider']],
    ['de', 'Gruppen', ['Developers', 'Von einem Admin hinzugefügt · Von Ihrem Anmeldedienst']],
  ] as const)('lists the groups on /account (%s), each once with its sources', async (locale, heading, first) => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      locale,
      extraHTTPHeaders: { 'accept-language': locale },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    const login = await page.request.post(`${idp.url}/api/auth/login`, {
      data: { email: 'alice@example.com', password: 'correct horse battery staple' },
      headers: { origin: idp.url },
    });
    expect(login.status()).toBe(200);
    await page.goto(`${idp.url}/account`);
    const section = page.getByRole('region', { name: heading });
    await section.locator('#groups-list[aria-busy="false"]').waitFor();
    const items = section.getByRole('listitem');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).locator('strong').textContent()).toBe(first[0]);
    expect(await items.nth(0).locator('.hint').textContent()).toBe(first[1]);
    expect(await items.nth(1).locator('strong').textContent()).toBe('Site reliability');
    expect(await page.locator('#groups-none').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });
});
