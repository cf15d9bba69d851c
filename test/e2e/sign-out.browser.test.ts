import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/** The policy another change puts on every HTML page; the question must work under it. */
const strictCsp = "script-src 'self'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** Set to a directory to keep the screenshots (360 px and desktop, light and dark). */
const screenshotDir = process.env.IDP_SCREENSHOTS_DIR;

/**
 * Issue 10 item 7 in a real browser: another site (localhost, while idp is
 * 127.0.0.1, so a different site for SameSite) cannot sign the user out,
 * neither by a GET without hint nor by posting the answer; the question
 * "Sign out of Acme ID?" does, after "Sign out", and then returns to the
 * relying party's registered post_logout_redirect_uri with its state.
 */
describe('signing out through the question in Chromium', () => {
  let idp: RunningIdp;
  let site: http.Server;
  let siteUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    siteUrl = `http://localhost:${port}`;
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({
          clientId: 'web',
          redirectUris: [`${siteUrl}/callback`],
          postLogoutRedirectUris: [`${siteUrl}/signed-out`],
        }),
      ],
      branding: { ...testConfig().branding, name: 'Acme ID' },
    });
    const logout = `${idp.url}/oauth2/logout`;
    const pages: Record<string, string> = {
      '/img': `<img src="${logout}" alt="">`,
      '/link': `<a href="${logout}?client_id=web&amp;post_logout_redirect_uri=${encodeURIComponent(`${siteUrl}/signed-out`)}&amp;state=s1">Sign out</a>`,
      '/forge': `<form method="post" action="${logout}/confirm"></form><script>document.forms[0].submit()</script>`,
      '/signed-out': '<h1>Back on the app</h1>',
    };
    site = http.createServer((req, res) => {
      const body = pages[new URL(req.url ?? '/', siteUrl).pathname];
      res
        .writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Other site</title>${body ?? ''}`);
    });
    await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
    browser = await chromium.launch({
      headless: true,
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await idp?.stop();
  });

  /** A browser context signed in as alice, whose idp pages carry the strict policy; CSP reports are collected. */
  async function signedInContext(
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
    const context = await browser.newContext(options);
    const login = await context.request.post(`${idp.url}/api/auth/login`, {
      data: { email: 'alice@example.com', password: 'correct horse battery staple' },
    });
    expect(login.status()).toBe(200);
    await context.route(`${idp.url}/oauth2/logout?**`, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': strictCsp } });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return { context, page, violations };
  }

  const sessionStatus = async (context: BrowserContext) =>
    (await context.request.get(`${idp.url}/api/auth/session`)).status();

  it('keeps the session against another site, and signs out after "Sign out" on the question', async () => {
    const { context, page, violations } = await signedInContext();

    await page.goto(`${siteUrl}/img`);
    await page.waitForLoadState('networkidle');
    expect(await sessionStatus(context)).toBe(200);

    await page.goto(`${siteUrl}/forge`);
    await page.waitForURL((url) => url.pathname === '/oauth2/logout/confirm');
    expect(await page.textContent('body')).toContain('ORIGIN_NOT_ALLOWED');
    expect(await sessionStatus(context)).toBe(200);

    await page.goto(`${siteUrl}/link`);
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign out of Acme ID?' }).waitFor();
    expect(await page.title()).toBe('Sign out · Acme ID');
    expect(await page.getByText('Signed in as alice@example.com').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/');
    expect(await sessionStatus(context)).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === siteUrl && url.pathname === '/signed-out');
    expect(new URL(page.url()).searchParams.get('state')).toBe('s1');
    expect(await sessionStatus(context)).toBe(401);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows the question at 360 px without sideways scrolling, light and dark', async () => {
    if (screenshotDir) await mkdir(screenshotDir, { recursive: true });
    for (const [width, height] of [
      [360, 740],
      [1280, 800],
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page, violations } = await signedInContext({ viewport: { width, height }, colorScheme });
        await page.goto(`${idp.url}/oauth2/logout`);
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        // docs/ui.md, "How to check a page": tap targets at least 44 px high.
        for (const target of [
          page.getByRole('button', { name: 'Sign out' }),
          page.getByRole('link', { name: 'Cancel' }),
        ]) {
          expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
        }
        if (screenshotDir)
          await page.screenshot({
            path: path.join(screenshotDir, `sign-out-${width}-${colorScheme}.png`),
            fullPage: true,
          });
        expect(violations).toEqual([]);
        await context.close();
      }
    }
  });
});
