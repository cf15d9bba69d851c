import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { insecure } from '../oidc/support/provider-fixture.js';
import { launchChromium, watchPage } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/** Where the /device screenshots go (docs/ui.md, "How to check a page"); unset, none are taken. */
const screenshotDir = process.env.IDP_SCREENSHOTS_DIR;
const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
const password = 'correct horse battery staple';

/**
 * The Device Authorization Grant (RFC 8628) in Chromium: oauth4webapi is
 * the device, which asks for a code and polls; the user opens
 * verification_uri_complete or types the code on /device, signs in,
 * allows on the consent page (which warns about codes from others) and is
 * told to return to the device, which then gets its tokens. Wrong codes
 * typed again and again lock the address.
 */
describe('the device flow in Chromium', () => {
  let idp: RunningIdp;
  let browser: Browser;
  let as: oauth.AuthorizationServer;
  const tv: oauth.Client = { client_id: 'tv' };

  beforeAll(async () => {
    const base = testConfig();
    idp = await startIdp('sqlite', {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      security: { ...base.security, loginRateLimit: { maxAttempts: 5, addressMaxAttempts: 3, windowSeconds: 900 } },
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'tv',
          name: 'Living Room TV',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [],
          grantTypes: [deviceGrant, 'refresh_token'],
        }),
      ],
    });
    as = await oauth.processDiscoveryResponse(
      new URL(idp.url),
      await oauth.discoveryRequest(new URL(idp.url), { algorithm: 'oidc', ...insecure }),
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
  });

  async function open(options: BrowserContextOptions = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const reports = await watchPage(page);
    return { context, page, reports };
  }

  async function requestCode() {
    const response = await oauth.deviceAuthorizationRequest(as, tv, oauth.None(), { scope: 'openid email' }, insecure);
    return oauth.processDeviceAuthorizationResponse(as, tv, response);
  }

  async function pollOnce(deviceCode: string) {
    const response = await oauth.deviceCodeGrantRequest(as, tv, oauth.None(), deviceCode, insecure);
    return oauth.processDeviceCodeResponse(as, tv, response);
  }

  async function signInAndAllow(page: Page) {
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in to Living Room TV' }).waitFor();
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('heading', { name: 'Allow Living Room TV to access your account?' }).waitFor();
    expect(await page.locator('#device-warning').textContent()).toContain('the code came from your own device');
    if (screenshotDir)
      await page.screenshot({
        path: path.join(screenshotDir, `device-consent-${page.viewportSize()!.width}-light-en.png`),
        fullPage: true,
      });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.pathname === '/device/done');
    await page.getByText('You may return to your device.').waitFor();
  }

  it('§3.3: the user opens verification_uri_complete, signs in, allows; the device gets its tokens', async () => {
    const code = await requestCode();
    expect(
      await pollOnce(code.device_code).catch((error: unknown) =>
        error instanceof oauth.ResponseBodyError ? error.error : error,
      ),
    ).toBe('authorization_pending');
    const { context, page, reports } = await open();
    await page.goto(code.verification_uri_complete!);
    const field = page.getByLabel('Code', { exact: true });
    expect(await field.inputValue()).toBe(code.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInAndAllow(page);
    // The device waits its interval, then polls once more.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const tokens = await pollOnce(code.device_code);
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({ sub: 'alice', aud: 'tv' });
    expect(reports.pageErrors).toEqual([]);
    expect(reports.violations).toEqual([]);
    await context.close();
  });

  it('§6.1: the user types the code in lower case without the dash, with the keyboard only', async () => {
    const code = await requestCode();
    const { context, page, reports } = await open({ viewport: { width: 360, height: 740 } });
    await page.goto(code.verification_uri);
    const field = page.getByLabel('Code', { exact: true });
    expect(await field.inputValue()).toBe('');
    // An empty field is caught on the page, its error read out.
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.locator('#device-summary').textContent()).toBe('Enter the code shown on your device.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('user_code');
    await page.keyboard.type(code.user_code.replace('-', '').toLowerCase());
    await page.keyboard.press('Enter');
    await signInAndAllow(page);
    const tokens = await pollOnce(code.device_code);
    expect(tokens.access_token).toBeTruthy();
    expect(reports.pageErrors).toEqual([]);
    await context.close();
  });

  it('fits 360 px and 1280 px, light and dark, in English and German, with 44 px targets', async () => {
    if (screenshotDir) await mkdir(screenshotDir, { recursive: true });
    const words = {
      en: { heading: 'Connect a device', button: 'Continue', done: 'Device connected', code: 'Code' },
      de: { heading: 'Gerät verbinden', button: 'Weiter', done: 'Gerät verbunden', code: 'Code' },
    };
    const sizes = screenshotDir
      ? [
          [360, 740],
          [1280, 800],
        ]
      : [[360, 740]];
    for (const [width, height] of sizes)
      for (const colorScheme of ['light', 'dark'] as const)
        for (const locale of ['en', 'de'] as const) {
          const { context, page, reports } = await open({
            viewport: { width, height },
            colorScheme,
            locale,
            extraHTTPHeaders: { 'accept-language': locale },
          });
          await page.goto(`${idp.url}/device?user_code=BCDF-GHJK`);
          await page.getByRole('heading', { name: words[locale].heading }).waitFor();
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          for (const target of [
            page.getByLabel(words[locale].code, { exact: true }),
            page.getByRole('button', { name: words[locale].button }),
          ])
            expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
          if (screenshotDir)
            await page.screenshot({
              path: path.join(screenshotDir, `device-${width}-${colorScheme}-${locale}.png`),
              fullPage: true,
            });
          await page.goto(`${idp.url}/device/done?result=approved`);
          await page.getByRole('heading', { name: words[locale].done }).waitFor();
          if (screenshotDir)
            await page.screenshot({
              path: path.join(screenshotDir, `device-done-${width}-${colorScheme}-${locale}.png`),
              fullPage: true,
            });
          expect(reports.violations).toEqual([]);
          await context.close();
        }
  });

  it('§5.1: wrong codes are refused with an error read out, and repeated ones lock the address', async () => {
    const { context, page } = await open({ viewport: { width: 360, height: 740 } });
    await page.goto(`${idp.url}/device`);
    const field = page.getByLabel('Code', { exact: true });
    for (let i = 0; i < 3; i += 1) {
      await field.fill('BBBB-BBBB');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.searchParams.get('error') === 'INVALID_USER_CODE');
      const summary = page.getByRole('alert');
      expect(await summary.locator('[data-code="INVALID_USER_CODE"]').textContent()).toContain(
        'This code is not valid',
      );
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      // The refused code has the focus, described by its error.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('user_code');
      expect(await field.getAttribute('aria-describedby')).toBe('user_code-hint user_code-error');
    }
    if (screenshotDir)
      await page.screenshot({ path: path.join(screenshotDir, 'device-error-360-light-en.png'), fullPage: true });
    // Now even the right code is refused until the window ends.
    const code = await requestCode();
    await field.fill(code.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.searchParams.get('error') === 'TOO_MANY_REQUESTS');
    expect(await page.locator('#device-summary [data-code="TOO_MANY_REQUESTS"]').textContent()).toBe(
      'Too many attempts. Try again in 15 minutes.',
    );
    if (screenshotDir)
      await page.screenshot({ path: path.join(screenshotDir, 'device-locked-360-light-en.png'), fullPage: true });
    await context.close();
  });
});
