import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApp, type App } from '../../src/app.js';
import { applyConfig } from '../../src/gitops/index.js';
import { testConfig, testUser } from '../support/config-fixture.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { issueResetToken, seedUser, testPassword } from '../support/test-app.js';
import type { UserRecord } from '../../src/model/index.js';
import { launchChromium } from './support/browser.js';
import { freePort } from './support/start-idp.js';

/**
 * docs/ui.md "Forms": a page whose scripts did not run (blocked, not loaded
 * yet, turned off) never puts a password into a URL. Every form that
 * carries one has method="post"; with no script to send it to the API, the
 * post is refused, and neither the addresses the browser asked for nor the
 * server's log hold the password. Chromium with JavaScript off submits each
 * of them: /login, /register, /reset-password, and on /account the password
 * change and the account deletion.
 */
const secret = 'Do-Not-Leak-4f1c9a';

describe.each(databaseKinds)('password forms without scripts on %s', (kind) => {
  let database: TestDatabase;
  let app: App;
  let url: string;
  let browser: Browser;
  const logLines: string[] = [];
  let dora: UserRecord;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${String(port)}`;
    database = await createTestDatabase(kind);
    const base = testConfig();
    const config = testConfig({
      server: { ...base.server, baseUrl: url, host: '127.0.0.1', port },
      database: database.config,
      registration: { ...base.registration, enabled: true, emailVerificationRequired: false },
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
      users: [testUser({ sub: 'cfg', email: 'cfg@example.com' })],
    });
    await applyConfig(database.storage, config);
    dora = await seedUser({ database }, { sub: 'dora', email: 'dora@example.com' });
    // Everything the server writes, at its most talkative level.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await createApp(config, { storage: database.storage, logger: pino({ level: 'trace' }, sink) });
    await app.start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop({ timeoutMs: 1000 });
    await database.destroy();
  });

  /** A context with scripts off that records every address it asks for. */
  async function scriptless(): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const requested: string[] = [];
    page.on('request', (request) => {
      requested.push(`${request.method()} ${request.url()}`);
    });
    return { context, page, requested };
  }

  /** Fills every password field of the form with the secret (and the e-mail, if asked), submits it, and checks where it went. */
  async function submitScriptless(path: string, formId: string, prepare?: (page: Page) => Promise<void>) {
    const { context, page, requested } = await scriptless();
    if (prepare) await prepare(page);
    await page.goto(`${url}${path}`);
    const form = page.locator(`#${formId}`);
    // A hidden form (the deletion's confirmation) is opened by a script; shown here by hand.
    await form.evaluate((element) => {
      element.removeAttribute('hidden');
    });
    const email = form.locator('input[type="email"]');
    if ((await email.count()) > 0) await email.fill('dora@example.com');
    for (const field of await form.locator('input[type="password"]').all()) await field.fill(secret);
    const submitted = page.waitForEvent('requestfinished', (request) => request.isNavigationRequest());
    await form.locator('button[type="submit"]').click();
    const sent = await submitted;
    expect(page.url(), formId).not.toContain(secret);
    for (const address of requested) expect(address, formId).not.toContain(secret);
    expect(logLines.join(''), formId).not.toContain(secret);
    expect(sent.method(), formId).toBe('POST');
    expect(new URL(sent.url()).pathname, formId).toBe(new URL(`${url}${path}`).pathname);
    // Refused: without its script nothing calls the API, and the page route takes no posts.
    expect((await sent.response())?.status(), formId).toBeGreaterThanOrEqual(400);
    await context.close();
  }

  it('keeps the password out of the URL and the log on /login', async () => {
    await submitScriptless('/login', 'login-form');
  });

  it('keeps the password out of the URL and the log on /register', async () => {
    await submitScriptless('/register', 'register-form');
  });

  it('keeps the password out of the URL and the log on /reset-password', async () => {
    // A link that can still be used: an expired or used one shows no form.
    await submitScriptless(`/reset-password?token=${await issueResetToken({ database }, dora)}`, 'reset-form');
  });

  const signedIn = async (page: Page) => {
    const answer = await page.request.post(`${url}/api/auth/login`, {
      data: { email: 'dora@example.com', password: testPassword },
    });
    expect(answer.status()).toBe(200);
  };

  it('keeps the password out of the URL and the log in the password change on /account', async () => {
    await submitScriptless('/account', 'password-form', signedIn);
  });

  it('keeps the password out of the URL and the log in the account deletion on /account', async () => {
    await submitScriptless('/account', 'delete-form', signedIn);
  });
});
