import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { testClient } from '../support/config-fixture.js';
import { startFederationFixture, type FederationFixture } from '../federation/support/federation-fixture.js';
import { launchChromium } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort } from './support/start-idp.js';

/**
 * Issue 13 in a real Chromium: from a relying party to the built-in login
 * page, its "Continue with …" button, the upstream (oidc-provider on
 * 127.0.0.1, behind `corp` with require_link and `corp-auto` with
 * auto_link), and back through consent to the relying party's callback,
 * where openid-client checks the ID token.
 */
describe('upstream sign-in in Chromium', () => {
  let f: FederationFixture;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    f = await startFederationFixture(
      'sqlite',
      {},
      {
        clients: [testClient({ clientId: 'web', name: 'Acme Notes', redirectUris: [rp.redirectUri] })],
        branding: { name: 'Acme ID', logoUrl: null, primaryColor: null },
      },
    );
    await rp.discover(f.idp.url);
    await rp.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await f?.stop();
  });

  async function startAtRelyingParty() {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/login');
    return { context, page };
  }
  const who = (page: import('playwright-core').Page) => page.locator('#who').textContent();

  it('signs up with the upstream from the login page, then a returning user goes straight back', async () => {
    f.oidc.signInAs('ada');
    const first = await startAtRelyingParty();
    await first.page.getByRole('link', { name: 'Continue with Corp SSO' }).click();
    await first.page.waitForURL((url) => url.pathname === '/consent');
    await first.page.getByRole('button', { name: 'Allow' }).click();
    await first.page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    const [ada] = (await f.users()).filter((u) => u.email === 'ada@example.com');
    expect(await who(first.page)).toBe(`Signed in as ${ada.sub} (ada@example.com)`);
    await first.context.close();

    const again = await startAtRelyingParty();
    await again.page.getByRole('link', { name: 'Continue with Corp SSO' }).click();
    await again.page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await who(again.page)).toBe(`Signed in as ${ada.sub} (ada@example.com)`);
    const last = rp.results.at(-1);
    if (last instanceof Error) throw last;
    expect(last?.claims).toMatchObject({ sub: ada.sub, aud: 'web' });
    await again.context.close();
  });

  it('require_link: the existing account signs in with its password, then the link exists and signs it in', async () => {
    f.oidc.signInAs('alice-corp');
    const { context, page } = await startAtRelyingParty();
    await page.getByRole('link', { name: 'Continue with Corp SSO' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'LINK_REQUIRED');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/already exists.*Corp SSO/);
    expect(await page.getByLabel('Email').inputValue()).toBe('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await who(page)).toBe('Signed in as alice (alice@example.com)');
    expect(await f.connections()).toContainEqual({ provider_id: 'corp', subject: 'alice-corp', sub: 'alice' });
    await context.close();

    const returning = await startAtRelyingParty();
    await returning.page.getByRole('link', { name: 'Continue with Corp SSO' }).click();
    await returning.page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await who(returning.page)).toBe('Signed in as alice (alice@example.com)');
    await returning.context.close();
  });

  it('auto_link: a verified upstream address signs in to the existing account at once; an unverified one asks to link', async () => {
    f.oidc.signInAs('alice-corp');
    const verified = await startAtRelyingParty();
    await verified.page.getByRole('link', { name: 'Continue with Corp Partners' }).click();
    await verified.page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await who(verified.page)).toBe('Signed in as alice (alice@example.com)');
    await verified.context.close();

    f.oidc.signInAs('alice-unverified');
    const unverified = await startAtRelyingParty();
    await unverified.page.getByRole('link', { name: 'Continue with Corp Partners' }).click();
    await unverified.page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('error') === 'LINK_REQUIRED',
    );
    await expect.poll(() => unverified.page.getByRole('alert').first().textContent()).toMatch(/already exists/);
    expect((await f.connections()).filter((c) => c.subject === 'alice-unverified')).toEqual([]);
    await unverified.context.close();
  });

  it('/account lists the connections, connects another provider through it, and disconnects one', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${f.idp.url}/login?return_to=/account`);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    const section = page.locator('#connections');
    await expect
      .poll(() => section.locator('#connection-list strong').allTextContents())
      .toEqual(['Corp SSO', 'Corp Partners']);

    f.github.signInAs('alice-gh');
    await section.getByRole('link', { name: 'Connect GitHub' }).first().click();
    await page.waitForURL((url) => url.pathname === '/account' && url.hash === '#connections');
    await expect
      .poll(() => section.locator('#connection-list strong').allTextContents())
      .toEqual(['Corp SSO', 'Corp Partners', 'GitHub']);
    expect(await f.connections()).toContainEqual({ provider_id: 'github', subject: '102', sub: 'alice' });

    await section.getByRole('button', { name: 'Disconnect GitHub' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('GitHub was disconnected.');
    expect(await section.locator('#connection-list strong').allTextContents()).toEqual(['Corp SSO', 'Corp Partners']);
    await context.close();
  });
});
