import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testClient, testTerm, testUser } from '../support/config-fixture.js';
import { applyConfig } from '../../src/gitops/index.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * Issue #14 in Chromium: a new version of a required term, applied while
 * the user is known, is asked at the next sign-in and then the relying
 * party is reached; withdrawing an app's access on /account makes the next
 * authorization ask for consent again.
 */
describe('terms and apps with access through the built-in pages in Chromium', () => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;
  const tos = testTerm({
    id: 'tos',
    version: '1',
    content: { en: { title: 'Terms of Service', type: 'link', content: 'https://acme.example/terms' } },
  });

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [testClient({ clientId: 'web', name: 'Acme Notes', redirectUris: [rp.redirectUri] })],
      terms: [tos],
    });
    await rp.discover(idp.url);
    await rp.listen();
    browser = await chromium.launch({
      headless: true,
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await idp?.stop();
  });

  const reachedCallback = (page: Page) =>
    page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');

  it('asks for the new version of a required term after apply, then reaches the relying party; revoking on /account asks for consent again', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);

    // First sign-in: the terms, then consent, then the relying party.
    await page.goto(`${rp.url}/start`);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/terms');
    expect(await page.title()).toBe('Terms of service · idp');
    await page.getByRole('heading', { name: 'Before you continue to Acme Notes' }).waitFor();
    // Continue without the box ticked: the field says why, and nothing is sent.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect
      .poll(() => page.locator('#terms-summary').textContent())
      .toContain('Accept “Terms of Service” to continue.');
    // The footer links the term too; the one in the form opens in a new tab.
    expect(
      await page.locator('#terms-form').getByRole('link', { name: 'Terms of Service' }).getAttribute('target'),
    ).toBe('_blank');
    await page.getByLabel('I have read and accept: Terms of Service').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await reachedCallback(page);

    // Version 2 is applied: the next authorization asks again, then goes straight through (consent is kept).
    await applyConfig(idp.database.storage, { ...idp.config, terms: [{ ...tos, version: '2' }] });
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/terms');
    await page.getByLabel('I have read and accept: Terms of Service').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await reachedCallback(page);
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice (alice@example.com)');

    // /account lists the app and the accepted version; Revoke withdraws it, once confirmed.
    await page.goto(`${idp.url}/account`);
    await page.getByRole('heading', { name: 'Apps with access' }).waitFor();
    await expect.poll(() => page.locator('#terms-list li').first().textContent()).toContain('Version 2, accepted on');
    const row = page.locator('#apps-list li', { hasText: 'Acme Notes' });
    await row.waitFor();
    await page.getByRole('button', { name: 'Revoke access of Acme Notes' }).click();
    await page.getByRole('button', { name: 'Revoke access', exact: true }).click();
    await expect.poll(() => page.locator('#apps-status').textContent()).toBe('Acme Notes no longer has access.');
    expect(await page.locator('#apps-list li').count()).toBe(0);
    expect(await page.locator('#apps-empty').isVisible()).toBe(true);

    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await reachedCallback(page);
    await page.close();
  });

  it('ends the request with access_denied when the user declines the terms', async () => {
    await applyConfig(idp.database.storage, { ...idp.config, terms: [{ ...tos, version: '3' }] });
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${rp.url}/start`);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/terms');
    await page.getByRole('button', { name: 'Decline' }).click();
    await reachedCallback(page);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    expect(rp.results.at(-1)).toBeInstanceOf(Error);
    await page.close();
  });
});
