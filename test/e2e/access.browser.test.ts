import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { testClient, testUser } from '../support/config-fixture.js';
import { joinGroup } from '../support/group-members.js';
import { launchChromium, watchPage } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/** Set to write the access-denied page's screenshots there (docs/ui.md, "How to check a page"). */
const screenshotDir = process.env.IDP_SCREENSHOTS_DIR;

/**
 * `clients[].access` in Chromium with an openid-client relying party
 * (docs/oidc.md, "Interaction: the sign-in steps"): a member of the
 * client's group signs in; anyone else sees /access-denied, whose "Back to"
 * returns error=access_denied with the original state and whose "Use
 * another account" lets an allowed user finish the same request;
 * prompt=none answers access_denied.
 */
describe('access to a client through the built-in pages in Chromium', () => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'grafana',
      clientSecret: testClient({ clientId: 'grafana' }).clientSecret,
    });
    idp = await startIdp('sqlite', {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [
        testUser({ sub: 'alice' }),
        testUser({ sub: 'bob', email: 'bob.with.a.rather.long.address@operations.example.com' }),
      ],
      groups: [{ id: 'sre', name: 'SRE', description: null, upstream: [], members: ['alice'] }],
      clients: [
        testClient({
          clientId: 'grafana',
          name: 'Grafana',
          redirectUris: [rp.redirectUri],
          access: { groups: ['sre'], roles: null, secondFactor: null },
        }),
      ],
    });
    await joinGroup(idp.database.storage, 'sre', ['alice']);
    await rp.discover(idp.url);
    await rp.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await idp?.stop();
  });

  const bob = 'bob.with.a.rather.long.address@operations.example.com';
  const reachedCallback = (page: Page) =>
    page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');

  async function open(options: BrowserContextOptions = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    return { context, page, reports };
  }

  async function signIn(page: Page, email: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('lets a member of the group sign in and reach the client', async () => {
    const { context, page } = await open();
    await page.goto(`${rp.url}/start`);
    await signIn(page, 'alice@example.com');
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await reachedCallback(page);
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice (alice@example.com)');
    await context.close();
  });

  it('shows anyone else /access-denied; "Back to" returns access_denied with the original state', async () => {
    const { context, page, reports } = await open();
    const start = await rp.authorizationUrl();
    const state = start.searchParams.get('state');
    await page.goto(start.href);
    await signIn(page, bob);
    await page.waitForURL((url) => url.pathname === '/access-denied');
    expect(await page.title()).toBe('No access · idp');
    await page.getByRole('heading', { name: `${bob} has no access to Grafana` }).waitFor();
    await page.getByRole('link', { name: 'Back to Grafana' }).click();
    await reachedCallback(page);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(rp.results.at(-1)).toMatchObject({ error: 'access_denied' });
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });

  it('lets "Use another account" sign in an allowed user to the same request', async () => {
    const { context, page } = await open();
    const start = await rp.authorizationUrl();
    await page.goto(start.href);
    await signIn(page, bob);
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.getByRole('link', { name: 'Use another account' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('select_account') === 'true');
    // The denied account is on offer (remembered), and so is a fresh sign-in.
    await page.getByRole('button', { name: `Continue as ${bob}` }).waitFor();
    await signIn(page, 'alice@example.com');
    // Alice allowed the client in the first test: straight back to it, with the request's state.
    await reachedCallback(page);
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice (alice@example.com)');
    expect(new URL(page.url()).searchParams.get('state')).toBe(start.searchParams.get('state'));
    await context.close();
  });

  it('answers prompt=none with access_denied, no page shown', async () => {
    const { context, page } = await open();
    await page.goto(`${rp.url}/start`);
    await signIn(page, bob);
    await page.waitForURL((url) => url.pathname === '/access-denied');
    await page.goto((await rp.authorizationUrl({ prompt: 'none' })).href);
    await reachedCallback(page);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    expect(rp.results.at(-1)).toMatchObject({ error: 'access_denied' });
    await context.close();
  });

  it('fits 360 px, light and dark, in English and German, with 44 px tap targets reached by the keyboard', async () => {
    if (screenshotDir) await mkdir(screenshotDir, { recursive: true });
    const words = {
      en: { heading: `${bob} has no access to Grafana`, another: 'Use another account', back: 'Back to Grafana' },
      de: {
        heading: `${bob} hat keinen Zugriff auf Grafana`,
        another: 'Anderes Konto verwenden',
        back: 'Zurück zu Grafana',
      },
    };
    // The desktop width only for the screenshots: 360 px is where the page can fail.
    const sizes = screenshotDir
      ? [
          [360, 740],
          [1280, 800],
        ]
      : [[360, 740]];
    for (const [width, height] of sizes) {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const locale of ['en', 'de'] as const) {
          const { context, page, reports } = await open({
            viewport: { width, height },
            colorScheme,
            locale,
            extraHTTPHeaders: { 'accept-language': locale },
          });
          // Signed in through the API: the sign-in page's labels are the locale's.
          const signedIn = await page.request.post(`${idp.url}/api/auth/login`, {
            data: { email: bob, password: 'correct horse battery staple' },
            headers: { origin: idp.url },
          });
          expect(signedIn.status()).toBe(200);
          await page.goto(`${rp.url}/start`);
          await page.getByRole('heading', { name: words[locale].heading }).waitFor();
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          for (const target of [
            page.getByRole('link', { name: words[locale].another }),
            page.getByRole('link', { name: words[locale].back }),
          ]) {
            expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
          }
          if (screenshotDir)
            await page.screenshot({
              path: path.join(screenshotDir, `access-denied-${width}-${colorScheme}-${locale}.png`),
              fullPage: true,
            });
          // Keyboard: the first Tab stops reach both choices, with a visible focus ring.
          await page.keyboard.press('Tab');
          const focused: string[] = [];
          for (let i = 0; i < 6 && focused.length < 2; i += 1) {
            const id = await page.evaluate(() => document.activeElement?.id ?? '');
            if (id === 'another-account' || id === 'back-to-client') {
              focused.push(id);
              expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe(
                'none',
              );
            }
            await page.keyboard.press('Tab');
          }
          expect(focused).toEqual(['another-account', 'back-to-client']);
          expect(reports.violations).toEqual([]);
          await context.close();
        }
      }
    }
  }, 180_000);
});
