import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import type { GroupConfig } from '../../src/config/types.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { signedInContext } from './support/console.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const group = (id: string, name: string): GroupConfig => ({ id, name, description: null, upstream: [], members: [] });

const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * A user's page of the console in Chromium, every action through its form:
 * edit, add to and remove from a group (confirmed), unlock, reset second
 * factors (confirmed), delete (confirmed) and restore; a config user
 * read-only; forms without the session's token or from another origin
 * refused. No CSP violation, nothing wider than 360 px, German too.
 */
describe.each(databaseKinds)('a user in the admin console (%s)', (kind) => {
  let idp: RunningIdp;
  let browser: Browser;
  let doraSub: string;

  beforeAll(async () => {
    const groups = [group('dev', 'Developers'), group('ops', 'Operations')];
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'root', role: 'admin' }), testUser({ sub: 'alice' })],
      groups,
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
    });
    const repository = idp.app.storage.repositories.groups;
    const now = Date.now();
    for (const { members: _members, ...record } of groups)
      await repository.save(idp.database.tx, { ...record, createdAt: now, updatedAt: now });
    await repository.addMemberships(
      idp.database.tx,
      [{ groupId: 'ops', sub: 'alice', source: 'config', provider: null }],
      now,
    );
    browser = await launchChromium();
    const context = await signedInContext(browser, idp.url, 'root@example.com');
    const created = await context.request.post(`${idp.url}/api/admin/users`, {
      data: { email: 'dora@example.com', password: 'correct horse battery staple', email_verified: true },
      headers: { origin: idp.url },
    });
    doraSub = ((await created.json()) as { user: { sub: string } }).user.sub;
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  async function open(width = 1280, locale: 'en' | 'de' = 'en'): Promise<{ page: Page; reports: PageReports }> {
    const context = await signedInContext(browser, idp.url, 'root@example.com', { width, locale });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { page, reports: await watchPage(page) };
  }

  const status = (page: Page) => page.getByRole('status').textContent();

  it('edits a database user, puts them into a group and takes them out after a confirmation', async () => {
    const { page, reports } = await open();
    await page.goto(`${idp.url}/admin/users`);
    await page.getByRole('link', { name: 'dora@example.com' }).click();
    await page.waitForURL((url) => url.pathname === `/admin/users/${doraSub}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('dora@example.com');
    await page.getByLabel('Email', { exact: true }).fill('dora.new@example.com');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByLabel('Email verified').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => status(page)).toBe('The user was saved.');
    const user = await idp.app.storage.repositories.users.findBySub(idp.database.tx, doraSub);
    expect(user).toMatchObject({ email: 'dora.new@example.com', role: 'admin', emailVerified: false });

    await page.getByLabel('Add to group').selectOption('dev');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => status(page)).toBe('The user was added to the group.');
    expect(await page.locator('#user-group-list').textContent()).toContain('Added by an administrator');

    await page.getByRole('link', { name: 'Remove from Developers' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Remove dora.new@example.com from Developers?',
    );
    await page.getByRole('button', { name: 'Remove from group' }).click();
    await expect.poll(() => status(page)).toBe('The user was removed from the group.');
    expect(await page.locator('#user-group-list').count()).toBe(0);
    expect(reports.violations).toEqual([]);
    await page.context().close();
  });

  it('refuses an e-mail another user has, on the page and in its language', async () => {
    const { page } = await open(1280, 'de');
    await page.goto(`${idp.url}/admin/users/${doraSub}`);
    await page.getByLabel('E-Mail', { exact: true }).fill('alice@example.com');
    await page.getByRole('button', { name: 'Speichern' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Ein anderer Benutzer hat diese E-Mail-Adresse.');
    expect(await alert.getAttribute('data-code')).toBe('EMAIL_ALREADY_EXISTS');
    await page.context().close();
  });

  it('unlocks, resets the second factors, deletes and restores after confirmations, at 360 px', async () => {
    const { page, reports } = await open(360);
    await page.goto(`${idp.url}/admin/users/${doraSub}`);
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Unlock sign-in' }).click();
    await expect.poll(() => status(page)).toBe('Sign-in is unlocked.');

    await page.getByRole('link', { name: 'Reset second factors' }).click();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Reset second factors' }).click();
    await expect.poll(() => status(page)).toBe('The second factors were removed.');

    await page.getByRole('link', { name: 'Delete user' }).click();
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe(`/admin/users/${doraSub}`);
    expect((await idp.app.storage.repositories.users.findBySub(idp.database.tx, doraSub))?.deletedAt).toBeNull();
    await page.getByRole('link', { name: 'Delete user' }).click();
    await page.getByRole('button', { name: 'Delete user' }).click();
    await expect.poll(() => status(page)).toBe('The user was deleted.');
    expect((await idp.app.storage.repositories.users.findBySub(idp.database.tx, doraSub))?.deletedAt).not.toBeNull();
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Restore user' }).click();
    await expect.poll(() => status(page)).toBe('The user was restored.');
    expect((await idp.app.storage.repositories.users.findBySub(idp.database.tx, doraSub))?.deletedAt).toBeNull();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    const types = await page.locator('#user-event-list').textContent();
    for (const type of ['admin.user_restored', 'admin.user_deleted', 'second_factor.reset_by_admin'])
      expect(types).toContain(type);
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await page.context().close();
  });

  it('shows a config user read-only, declared in the config file (en and de)', async () => {
    for (const [locale, declared] of [
      ['en', 'Declared in the config file'],
      ['de', 'In der Konfigurationsdatei festgelegt'],
    ] as const) {
      const { page, reports } = await open(360, locale);
      await page.goto(`${idp.url}/admin/users/alice`);
      expect(await page.locator('#declared').textContent()).toContain(declared);
      expect(await page.locator('form[action$="/edit"]').count()).toBe(0);
      expect(await page.locator('a[href*="action=delete"]').count()).toBe(0);
      expect(await page.locator('#user-group-list').textContent()).toContain('Operations');
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      expect(reports.violations).toEqual([]);
      await page.context().close();
    }
  });

  it('refuses a form without the session token, and one from another origin', async () => {
    const { page } = await open();
    await page.goto(`${idp.url}/admin/users/${doraSub}`);
    const token = await page.locator('input[name="csrf"]').first().getAttribute('value');
    const noToken = await page.request.post(`${idp.url}/admin/users/${doraSub}/delete`, {
      form: { csrf: 'forged' },
      headers: { origin: idp.url },
      maxRedirects: 0,
    });
    expect(noToken.status()).toBe(403);
    expect(await noToken.text()).toContain('data-code="INVALID_CONSOLE_FORM"');
    const foreign = await page.request.post(`${idp.url}/admin/users/${doraSub}/delete`, {
      form: { csrf: token ?? '' },
      headers: { origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(403);
    expect((await foreign.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await idp.app.storage.repositories.users.findBySub(idp.database.tx, doraSub))?.deletedAt).toBeNull();
    // The token is the session's: another session's page cannot lend it.
    const other = await signedInContext(browser, idp.url, 'root@example.com');
    const replayed = await other.request.post(`${idp.url}/admin/users/${doraSub}/delete`, {
      form: { csrf: token ?? '' },
      headers: { origin: idp.url },
      maxRedirects: 0,
    });
    expect(replayed.status()).toBe(403);
    await other.close();
    await page.context().close();
  });

  it('answers an unknown user with the reason and a way back', async () => {
    const { page } = await open();
    const response = await page.goto(`${idp.url}/admin/users/nobody`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('alert').textContent()).toBe('There is no such user.');
    await page.getByRole('link', { name: 'All users' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/users');
    await page.context().close();
  });
});
