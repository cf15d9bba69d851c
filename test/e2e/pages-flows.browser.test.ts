import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ParsedMail } from 'mailparser';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { launchChromium, watchPage, type PageReports } from './support/browser.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * Issue 11, "Done when": a person does everything through the built-in
 * pages in Chromium, with mail through a real SMTP server (smtp-server,
 * parsed by mailparser) whose links are followed: register → confirm the
 * address → sign in → edit the profile → change the password → sign out →
 * forget it → reset it → sign in → delete the account. On SQLite and
 * PostgreSQL; the mail jobs run on the real scheduler.
 */
/** The page's answer may wait for argon2 on a busy machine: a poll longer than vitest's 1 s default. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe.each(databaseKinds)('the account pages end to end on %s', (kind) => {
  let idp: RunningIdp;
  let smtp: SmtpSink;
  let browser: Browser;
  let page: Page;
  let reports: PageReports;
  const email = `grace.${kind}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const base = testConfig();
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      branding: { name: 'Acme ID', logoUrl: null, primaryColor: '#0b7a55' },
      registration: {
        enabled: true,
        allowedEmailPatterns: [],
        emailVerificationRequired: true,
        signupNotice: {
          en: 'By creating an account you accept our <a href="https://acme.example/privacy">privacy notice</a>.',
        },
      },
      email: {
        enabled: true,
        from: 'Acme ID <id@acme.example>',
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: null, password: null },
      },
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
      terms: [
        {
          id: 'tos',
          required: true,
          consentMode: 'explicit',
          version: '1',
          content: { en: { title: 'Terms of Service', type: 'link', content: 'https://acme.example/terms' } },
        },
        {
          id: 'privacy',
          required: true,
          consentMode: 'implicit',
          version: '1',
          content: { en: { title: 'Privacy notice', type: 'link', content: 'https://acme.example/privacy' } },
        },
      ],
      scheduler: { ...base.scheduler, pollIntervalMs: 50, backgroundRetryDelayMs: 0 },
    });
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    reports = await watchPage(page);
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await smtp?.close();
  });

  /** The link of a mail that leads to `path`, on this server. */
  function linkIn(mail: ParsedMail, path: string): string {
    const link = new RegExp(`${idp.url}${path}\\?token=[A-Za-z0-9_-]+`).exec(mail.text ?? '')?.[0];
    if (!link) throw new Error(`no ${path} link in:\n${mail.text}`);
    return link;
  }

  async function signIn(password: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('registers, is asked to confirm, has the link sent again, and confirms with it', async () => {
    await page.goto(`${idp.url}/login`);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    expect(await page.locator('.signup-notice').textContent()).toBe(
      'By creating an account you accept our privacy notice.',
    );

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Checked in the browser first: next to each field, summarised, focus on the first.
    await poll(() => page.locator('#password-error').textContent()).toBe('Use at least 8 characters.');
    expect(await page.locator('#term-0-error').textContent()).toBe('Accept “Terms of Service” to continue.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');

    await page.getByLabel('Password', { exact: true }).fill('first password 123');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByLabel('I have read and accept: Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(await page.locator('#check-inbox-message').textContent()).toContain(email);
    const first = await smtp.next(15_000);
    expect(first.to).toMatchObject({ text: email });
    linkIn(first, '/verify-email');

    await page.getByRole('button', { name: 'Send the link again' }).click();
    await poll(() => page.locator('#register-status').textContent()).toBe(`A new link is on its way to ${email}.`);
    const second = await smtp.next(15_000);

    // Signing in before confirming: refused, with a way to get the link again.
    await page.goto(`${idp.url}/login`);
    await signIn('first password 123');
    await poll(() => page.locator('#login-summary p').getAttribute('data-code')).toBe('EMAIL_NOT_VERIFIED');
    expect(await page.locator('#login-summary').textContent()).toBe(
      'Confirm your email address first: open the link we sent you.',
    );
    await page.getByRole('button', { name: 'Send the confirmation link again' }).click();
    await poll(() => page.locator('#login-status').textContent()).toContain('a new link is on its way');
    const third = await smtp.next(15_000);

    await page.goto(linkIn(third, '/verify-email'));
    await page.getByRole('heading', { name: 'Email address confirmed' }).waitFor();
    // A used link cannot be used again, and says what to do.
    const used = await browser.newPage();
    await used.goto(linkIn(third, '/verify-email'));
    await used.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(await used.locator('#verify-failed').getAttribute('data-code')).toBe('INVALID_TOKEN');
    await used.close();
    expect(second.subject).toBe(third.subject);
    await page.getByRole('link', { name: 'Continue to sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
  });

  it('signs in, edits the profile, changes the password and signs out', async () => {
    await signIn('first password 123');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Manage your account' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.locator('#profile-form[aria-busy="false"]').waitFor();

    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await poll(() => page.locator('#profile-status').textContent()).toBe('Your changes were saved.');
    await page.reload();
    await poll(() => page.getByLabel('Full name').inputValue()).toBe('Grace Hopper');

    // The profile's language comes before the browser's: saving it shows the page in it at once.
    await page.locator('#profile-locale').selectOption('de');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Ihr Konto' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.locator('#profile-form[aria-busy="false"]').waitFor();
    await page.locator('#profile-locale').selectOption('');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.locator('#profile-form[aria-busy="false"]').waitFor();

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('second password 456');
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.locator('#current-password-error').textContent()).toBe('The current password is incorrect.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('current-password');
    await page.getByLabel('Current password').fill('first password 123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.locator('#password-status').textContent()).toBe(
      'Your password was changed. Other devices were signed out.',
    );

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect((await page.context().request.get(`${idp.url}/api/auth/session`)).status()).toBe(401);
  });

  it('resets a forgotten password through the mailed link and signs in with the new one', async () => {
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const mail = await smtp.next(15_000);

    await page.goto(linkIn(mail, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('third password 789');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    await signIn('second password 456');
    await poll(() => page.locator('#login-summary p').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
    await signIn('third password 789');
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('deletes the account from the danger zone, after which it cannot sign in', async () => {
    await page.goto(`${idp.url}/account`);
    await page.getByRole('button', { name: 'Delete account…' }).click();
    await page.locator('#delete-form').getByLabel('Password', { exact: true }).fill('third password 789');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Account deleted' }).waitFor();
    expect((await page.context().request.get(`${idp.url}/api/auth/session`)).status()).toBe(401);

    await page.goto(`${idp.url}/login`);
    await signIn('third password 789');
    await poll(() => page.locator('#login-summary p').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
    expect(reports.violations).toEqual([]);
    expect(reports.pageErrors).toEqual([]);
  });

  it('writes the mail in the language of the page it was asked from', async () => {
    const german = await browser.newPage({ locale: 'de-DE', extraHTTPHeaders: { 'accept-language': 'de' } });
    smtp.drain();
    await german.goto(`${idp.url}/forgot-password?locale=de`);
    await german.getByLabel('E-Mail').fill(`ada.${kind}@example.com`);
    await german.getByRole('button', { name: 'Link senden' }).click();
    await german.getByRole('heading', { name: 'Posteingang prüfen' }).waitFor();
    await german.close();
    await page.goto(`${idp.url}/register?locale=de`);
    await page.getByLabel('E-Mail').fill(`ada.${kind}@example.com`);
    await page.getByLabel('Passwort', { exact: true }).fill('ein gutes passwort');
    await page.getByLabel('Ich habe gelesen und akzeptiere: Terms of Service').check();
    await page.getByRole('button', { name: 'Konto erstellen' }).click();
    await page.getByRole('heading', { name: 'Posteingang prüfen' }).waitFor();
    const mail = await smtp.next(15_000);
    expect(mail.subject).toMatch(/E-Mail-Adresse/);
  });
});
