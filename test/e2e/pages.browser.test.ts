import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { testClient, testPasswordHash, testUser } from '../support/config-fixture.js';
import { testPassword } from '../support/test-app.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * The built-in pages in Chromium (docs/ui.md, "How to check a page", issue 11):
 * every page fits 360 px without sideways scrolling and every control has
 * an accessible name (read from Chromium's accessibility tree); the locale
 * follows Accept-Language and the language switcher, with <html lang>
 * right; branding.primary_color and branding.logo_url take effect under
 * the Content-Security-Policy. Config only, so SQLite is enough; the
 * account flows through the pages: test/e2e/pages-flows.browser.test.ts.
 */
/** The page's answer may wait for argon2 on a busy machine: a poll longer than vitest's 1 s default. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const accent = '#0b7a55';

describe('the built-in pages in Chromium', () => {
  let idp: RunningIdp;
  let browser: Browser;
  let logoServer: http.Server;
  let logoUrl: string;

  beforeAll(async () => {
    logoServer = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(
        '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="160" height="40" fill="#0b7a55"/></svg>',
      );
    });
    await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));
    logoUrl = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;
    idp = await startIdp('sqlite', {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      branding: { name: 'Acme ID', logoUrl, primaryColor: accent },
      registration: {
        enabled: true,
        allowedEmailPatterns: [],
        emailVerificationRequired: true,
        signupNotice: { en: 'By signing up you accept our <a href="https://acme.example/privacy">privacy notice</a>.' },
      },
      email: {
        enabled: true,
        from: 'idp@localhost',
        smtp: { host: '127.0.0.1', port: 9, secure: false, user: null, password: null },
      },
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
      terms: [
        {
          id: 'tos',
          required: true,
          consentMode: 'explicit',
          version: '1',
          content: {
            en: { title: 'Terms of Service', type: 'link', content: 'https://acme.example/terms' },
            de: { title: 'Nutzungsbedingungen', type: 'link', content: 'https://acme.example/agb' },
          },
        },
      ],
      users: [testUser({ sub: 'alice' })],
      clients: [testClient({ clientId: 'notes', name: 'Acme Notes' })],
    });
    const now = Date.now();
    await knexUserRepository.insert(idp.database.tx, {
      sub: 'bob',
      managedBy: 'database',
      email: 'bob@example.com',
      role: 'user',
      emailVerified: true,
      emailVerificationRequired: false,
      passwordHash: testPasswordHash,
      name: null,
      givenName: null,
      familyName: null,
      locale: null,
      secondFactorRequired: false,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await new Promise<void>((resolve) => logoServer?.close(() => resolve()));
  });

  const authorizeUrl = () =>
    `${idp.url}/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'notes',
      redirect_uri: 'https://notes.example.com/callback',
      scope: 'openid email profile',
      state: 's',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;

  async function signIn(context: BrowserContext, email: string) {
    const response = await context.request.post(`${idp.url}/api/auth/login`, {
      data: { email, password: testPassword },
    });
    expect(response.status()).toBe(200);
  }

  /** Every page and state a person can meet, with how to reach it. */
  const pages: { name: string; open(page: Page, context: BrowserContext): Promise<unknown> }[] = [
    { name: 'start page', open: (page) => page.goto(`${idp.url}/`) },
    { name: 'sign-in', open: (page) => page.goto(`${idp.url}/login`) },
    {
      name: 'sign-in of an application, with field errors',
      async open(page) {
        await page.goto(authorizeUrl());
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.locator('#login-summary li').first().waitFor();
      },
    },
    { name: 'registration', open: (page) => page.goto(`${idp.url}/register`) },
    { name: 'e-mail verification without a token', open: (page) => page.goto(`${idp.url}/verify-email`) },
    { name: 'forgotten password', open: (page) => page.goto(`${idp.url}/forgot-password`) },
    { name: 'new password', open: (page) => page.goto(`${idp.url}/reset-password?token=abc`) },
    {
      name: 'terms of service',
      async open(page, context) {
        await signIn(context, 'bob@example.com');
        await page.goto(authorizeUrl());
        await page.waitForURL((url) => url.pathname === '/terms');
      },
    },
    {
      name: 'consent',
      async open(page, context) {
        await signIn(context, 'alice@example.com');
        // The terms step comes before consent (docs/oidc.md, "Interaction: the sign-in steps").
        expect(
          (
            await context.request.post(`${idp.url}/api/terms/accept`, {
              data: { terms: [{ id: 'tos', version: '1' }] },
            })
          ).status(),
        ).toBe(200);
        await page.goto(authorizeUrl());
        await page.waitForURL((url) => url.pathname === '/consent');
      },
    },
    {
      name: 'account with the danger zone open',
      async open(page, context) {
        await signIn(context, 'bob@example.com');
        await page.goto(`${idp.url}/account`);
        await page.getByRole('button', { name: 'Delete account…' }).click();
        await page.getByLabel('Password', { exact: true }).first().waitFor();
      },
    },
    {
      name: 'sign-out question',
      async open(page, context) {
        await signIn(context, 'alice@example.com');
        await page.goto(`${idp.url}/oauth2/logout?client_id=notes`);
      },
    },
    { name: 'page not found', open: (page) => page.goto(`${idp.url}/no-such-page`) },
    {
      name: 'rejected authorization request',
      open: (page) => page.goto(`${idp.url}/oauth2/authorize?client_id=nobody`),
    },
  ];

  /** Controls of Chromium's accessibility tree without a name. */
  async function unnamedControls(page: Page): Promise<string[]> {
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
    };
    const controls = new Set(['textbox', 'combobox', 'checkbox', 'button', 'link', 'listbox', 'radio', 'searchbox']);
    return nodes
      .filter((node) => !node.ignored && controls.has(node.role?.value ?? '') && !node.name?.value?.trim())
      .map((node) => node.role!.value);
  }

  it.each(pages.map((p) => [p.name, p] as const))(
    '%s fits 360 px, names every control, and runs clean under its policy',
    async (_name, target) => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const reports: PageReports = await watchPage(page);
      await target.open(page, context);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      expect(await unnamedControls(page)).toEqual([]);
      // Every input is labelled for assistive technology (a visible label or, for the toggles, aria-label).
      expect(await page.locator('input:not([type=hidden]):visible').count()).toBe(
        await page.locator('input:not([type=hidden]):visible[id]').count(),
      );
      // Tap targets: controls and the links that stand alone are at least 44 px high; a checkbox's is its label.
      const small = await page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            'button, input:not([type=hidden]), select, .footer a, .form-links a, .switch a, .toc a, a.button',
          ),
        ]
          .filter((element) => element.offsetParent !== null)
          .map((element) =>
            element instanceof HTMLInputElement && element.type === 'checkbox' ? element.labels![0] : element,
          )
          .filter((element) => element.getBoundingClientRect().height < 44)
          .map((element) => element.outerHTML.slice(0, 80)),
      );
      expect(small).toEqual([]);
      expect(reports.violations).toEqual([]);
      expect(reports.pageErrors).toEqual([]);
      await context.close();
    },
  );

  it('keeps the sign-in card inside a 390 px phone with 16 px margins (it used to end at 423 px)', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${idp.url}/login`);
    const card = await page.locator('main.card').boundingBox();
    expect(card).toMatchObject({ x: 16, width: 358 });
    await page.close();
  });

  it('has a dark variant, and no animation for people who ask for reduced motion', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${idp.url}/login`);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 21)');
    expect(await page.locator('main.card').evaluate((card) => getComputedStyle(card).backgroundColor)).toBe(
      'rgb(28, 31, 38)',
    );
    // The progress spinner of a busy button stands still.
    await page.route('**/api/auth/login', () => undefined);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('anything');
    const button = page.getByRole('button', { name: 'Signing in…' });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await button.isDisabled()).toBe(true);
    expect(await button.evaluate((b) => getComputedStyle(b, '::before').animationName)).toBe('none');
    await context.close();
  });

  it("switches language without scripts too: the switcher's button submits the same form", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${idp.url}/forgot-password?x=1`);
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((url) => url.searchParams.get('locale') === 'de' && url.searchParams.get('x') === '1');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await context.close();
  });

  it('speaks German to a browser that asks for it: lang="de", German words, German error sentences', async () => {
    const context = await browser.newContext({
      locale: 'de-DE',
      extraHTTPHeaders: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    const page = await context.newPage();
    await page.goto(authorizeUrl());
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.title()).toBe('Anmelden · Acme ID');
    await page.getByRole('heading', { name: 'Bei Acme Notes anmelden' }).waitFor();
    await page.getByLabel('E-Mail').fill('alice@example.com');
    await page.getByLabel('Passwort', { exact: true }).fill('falsch');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await poll(() => page.locator('#login-summary').textContent()).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    await page.goto(`${idp.url}/register`);
    await page.getByRole('button', { name: 'Konto erstellen' }).click();
    await poll(() => page.locator('#email-error').textContent()).toBe('Geben Sie Ihre E-Mail-Adresse ein.');
    expect(await page.locator('#term-0-error').textContent()).toBe(
      'Bitte akzeptieren Sie „Nutzungsbedingungen“, um fortzufahren.',
    );
    const legal = page.getByRole('navigation', { name: 'Rechtliches' });
    expect(await legal.getByRole('link', { name: 'Nutzungsbedingungen' }).getAttribute('href')).toBe(
      'https://acme.example/agb',
    );
    await context.close();
  });

  it("switches language with the footer's switcher, keeping the address and carrying the choice to the next page", async () => {
    const page = await browser.newPage();
    await page.goto(authorizeUrl());
    await page.waitForURL((url) => url.pathname === '/login');
    const returnTo = new URL(page.url()).searchParams.get('return_to');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.getByLabel('Language').selectOption('de');
    await page.waitForURL((url) => url.searchParams.get('locale') === 'de');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(returnTo);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.getByRole('heading', { name: 'Bei Acme Notes anmelden' }).waitFor();
    await page.getByRole('link', { name: 'Jetzt erstellen' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.close();
  });

  it('shows the logo from its host and the configured accent, with readable text on it', async () => {
    const page = await browser.newPage();
    const reports = await watchPage(page);
    await page.goto(`${idp.url}/login`);
    const logo = page.getByRole('img', { name: 'Acme ID' });
    await poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    expect(await logo.evaluate((img) => img.getBoundingClientRect().height)).toBeLessThanOrEqual(48);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(11, 122, 85)');
    expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(255, 255, 255)');
    expect(reports.violations).toEqual([]);
    await page.close();
  });
});
