import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClient, testUser } from '../support/config-fixture.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * Issue 10, Content-Security-Policy: the pages keep working in Chromium
 * with their policies on, and nothing on them is blocked. The policies
 * themselves: test/http/page-policy.storage.test.ts.
 */
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A client that takes response_mode=form_post: it records each POST to /callback and shows it. */
class FormPostClient {
  readonly received: Record<string, string>[] = [];
  private server?: http.Server;
  constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(frameSrc: () => string): Promise<void> {
    this.server = http.createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/callback') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          this.received.push(Object.fromEntries(new URLSearchParams(body)));
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end('<!doctype html><title>Client</title><h1 id="got">Got the code</h1>');
        });
        return;
      }
      // /frame: the client's page shows an idp URL in a frame (a silent renewal, or a framing attempt).
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Frame</title><iframe src="${frameSrc()}"></iframe>`);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The page's stylesheet, a file from 'self', was loaded and parsed (a blocked one has no sheet). */
function stylesheetLoaded(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    return (link?.sheet?.cssRules.length ?? 0) > 0;
  });
}

describe('the pages under their Content-Security-Policy in Chromium', () => {
  let idp: RunningIdp;
  let client: FormPostClient;
  let browser: Browser;
  let page: Page;
  let reports: PageReports;
  let framed = '';

  const authorize = (extra: Record<string, string> = {}) =>
    `${idp.url}/oauth2/authorize?${new URLSearchParams({
      client_id: 'web',
      redirect_uri: `${client.url}/callback`,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      response_mode: 'form_post',
      state: 'st',
      ...extra,
    })}`;

  /**
   * Nothing was blocked and nothing went wrong; Chromium logs the status of
   * an error page (`expected`) and of idp's favicon, which the built-in UI
   * does not have yet, as failed loads.
   */
  function expectClean(expected: string[] = []): void {
    expect(reports.violations).toEqual([]);
    const known = new Set([`${idp.url}/favicon.ico`, ...expected]);
    expect(reports.console.filter((message) => message.type === 'error' && !known.has(message.url))).toEqual([]);
    expect(reports.console.filter((message) => /content security policy/i.test(message.text))).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
  }

  beforeAll(async () => {
    client = new FormPostClient(await freePort());
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [testClient({ clientId: 'web', name: 'Acme Notes', redirectUris: [`${client.url}/callback`] })],
    });
    await client.listen(() => framed);
    browser = await launchChromium();
    // One page for the whole walk, so the session carries from one test to the next.
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    reports = await watchPage(page);
  });
  beforeEach(() => {
    reports.console.length = 0;
    reports.pageErrors.length = 0;
    reports.violations.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await idp?.stop();
  });

  it('signs in on /login, allows on /consent, and the form_post page reaches the client', async () => {
    await page.goto(authorize());
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await stylesheetLoaded(page)).toBe(true);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('heading', { name: 'Allow Acme Notes to access your account?' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${client.url}/callback`);
    await page.locator('#got').waitFor();
    expect(client.received).toEqual([
      { code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), state: 'st', iss: idp.url },
    ]);
    expectClean();
  });

  it('lets the client show the form_post page in its own frame (silent renewal with prompt=none)', async () => {
    framed = authorize({ prompt: 'none', state: 'silent' });
    await page.goto(`${client.url}/frame`);
    await expect.poll(() => client.received.length).toBe(2);
    // A code, not login_required: the frame carried the session and showed the form_post page.
    expect(client.received[1]).toEqual({
      code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: 'silent',
      iss: idp.url,
    });
    await expect.poll(() => page.frames().map((frame) => frame.url())).toContain(`${client.url}/callback`);
    expectClean();
  });

  it('shows an error page with its stylesheet', async () => {
    const url = `${idp.url}/oauth2/authorize?client_id=nobody`;
    const response = await page.goto(url);
    expect(response?.status()).toBe(400);
    await page.getByRole('heading', { name: 'Sign-in request rejected' }).waitFor();
    expect(await stylesheetLoaded(page)).toBe(true);
    expectClean([url]);
  });

  it('renders the API reference', async () => {
    await page.goto(`${idp.url}/api/docs`);
    await page.waitForSelector('.opblock');
    await page.locator('.opblock').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    expectClean();
  });

  // Last: it is the one that must report a violation.
  it('refuses to be framed anywhere else: the client cannot frame /login', async () => {
    framed = `${idp.url}/login`;
    await page.goto(`${client.url}/frame`);
    await expect
      .poll(() => reports.console.map((message) => message.text).join('\n'))
      .toMatch(/Framing '.*' violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
    expect(page.frames().some((frame) => frame.url().startsWith(`${idp.url}/login`))).toBe(false);
  });
});
