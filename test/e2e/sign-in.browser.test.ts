import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { testClient, testUser } from '../support/config-fixture.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * docs/ui.md and issue 4: a real Chromium signs in through the built-in
 * pages, allows consent and reaches the relying party's callback, where
 * openid-client redeems the code and validates the ID token.
 */
describe('signing in through the built-in pages in Chromium', () => {
  let idp: RunningIdp;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    idp = await startIdp('sqlite', {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'mallory' })],
      clients: [testClient({ clientId: 'web', name: 'Acme Notes', redirectUris: [rp.redirectUri] })],
      branding: { name: 'Acme ID', logoUrl: null, primaryColor: null },
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

  it('shows a wrong password accessibly, then signs in, allows consent and lands on the callback', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.title()).toBe('Sign in · Acme ID');

    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('The email or password is incorrect.');
    expect(await page.locator('#login-summary p').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
    // Focus goes back to the password, which was cleared; both fields are marked.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    expect(await page.title()).toBe('Allow access · Acme ID');
    await page.getByRole('heading', { name: 'Allow Acme Notes to access your account?' }).waitFor();
    expect(await page.locator('.scopes').getByRole('listitem').allTextContents()).toEqual([
      'Sign you in with your account',
      'See your email address',
      'See your name and basic profile',
    ]);
    expect(await page.locator('.return-host').textContent()).toBe(`You will return to ${new URL(rp.url).host}.`);
    expect(await page.locator('.account').textContent()).toBe('Signed in as alice@example.com — Not you?');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice (alice@example.com)');
    const [result] = rp.results;
    if (result instanceof Error) throw result;
    expect(result.claims).toMatchObject({ iss: idp.url, aud: 'web', sub: 'alice' });
    await page.close();
  });

  it('offers the remembered account with prompt=select_account and continues with it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${rp.url}/start`);
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Consent was given in the first test, so the browser goes straight back.
    await page.waitForURL((url) => url.pathname === '/callback');

    await page.goto((await rp.authorizationUrl({ prompt: 'select_account' })).href);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Continue as alice@example.com' }).click();
    await page.waitForURL((url) => url.pathname === '/callback');
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice (alice@example.com)');

    // The same choice at its own address (docs/ui.md, "Which pages"), for a front end that links to it.
    await page.goto((await rp.authorizationUrl({ prompt: 'select_account' })).href);
    await page.waitForURL((url) => url.pathname === '/login');
    const returnTo = new URL(page.url()).searchParams.get('return_to') ?? '';
    await page.goto(`${new URL(page.url()).origin}/select-account?${new URLSearchParams({ return_to: returnTo })}`);
    await page.getByRole('button', { name: 'Continue as alice@example.com' }).click();
    await page.waitForURL((url) => url.pathname === '/callback');
    await context.close();
  });

  // Last: the failures count against this browser's address too.
  it('shows the rate limit (429) with its wait on the sign-in page', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${rp.url}/start`);
    await page.getByLabel('Email').fill('mallory@example.com');
    const alert = page.getByRole('alert').first();
    let shown = '';
    for (let attempt = 0; attempt < 8 && !shown.startsWith('Too many'); attempt += 1) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong ${attempt}`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => alert.textContent()).not.toBe('');
      shown = (await alert.textContent()) ?? '';
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe(
        shown.startsWith('Too many') ? null : 'true',
      );
    }
    // The wait comes from Retry-After, in minutes once it is long.
    expect(shown).toMatch(/^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/);
    expect(await page.locator('#login-summary p').getAttribute('data-code')).toBe('TOO_MANY_REQUESTS');
    await page.close();
  });
});
