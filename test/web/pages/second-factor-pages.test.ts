import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/types.js';
import {
  createPageContext,
  renderAccountPage,
  renderLoginPage,
  renderSecondFactorPage,
} from '../../../src/web/index.js';
import { testConfig } from '../../support/config-fixture.js';

/** The second-factor parts of the pages (docs/http-api.md, "Second factors"; docs/ui.md): what each renders for which sign-in and config. In Chromium: test/e2e/pages-second-factors.browser.test.ts. */
const contextOf = (overrides: Partial<Config> = {}, query: Record<string, string> = {}) =>
  createPageContext(testConfig(overrides), { path: '/login/second-factor', query, acceptLanguage: null });
const passkeysOff: Partial<Config> = { auth: { ...testConfig().auth, passkeysEnabled: false } };
const dataOf = (page: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]);
const pending = {
  email: 'ada@example.com',
  returnTo: '/oauth2/authorize?client_id=web',
  enrolmentRequired: false,
  stepUp: null,
};

describe('/login/second-factor', () => {
  it("asks for the app's code, offers a recovery code and a passkey, and names who is signing in", () => {
    const page = renderSecondFactorPage(contextOf(), { ...pending, factors: ['passkey', 'totp', 'recovery_code'] });
    expect(page).toContain('<title>Two-step verification · idp</title>');
    expect(page).toContain('<h1 id="page-heading" tabindex="-1">Confirm it is you</h1>');
    expect(page).toContain('Signing in as ada@example.com');
    expect(page).toMatch(
      /<input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required/,
    );
    expect(page).toContain('<form id="recovery-form" class="form" method="post" novalidate hidden>');
    expect(page).toContain('>Use a recovery code instead</button>');
    expect(page).toContain('>Use a passkey</button>');
    expect(page).toContain('class="secondary" data-busy-label="Waiting for your passkey…"');
    expect(page).toContain('<script type="module" src="/ui/second-factor.js"></script>');
    expect(dataOf(page)).toMatchObject({
      returnTo: pending.returnTo,
      loginHref: '/login?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dweb',
      errors: { INVALID_CODE: expect.any(String) },
    });
  });

  it('offers only what the user has: an app without recovery codes left, or a passkey alone (then the main button)', () => {
    const app = renderSecondFactorPage(contextOf(), { ...pending, factors: ['totp'] });
    expect(app).toContain('totp-form');
    expect(app).not.toContain('recovery-form');
    expect(app).not.toContain('use-passkey');
    const passkey = renderSecondFactorPage(contextOf(), { ...pending, factors: ['passkey'] });
    expect(passkey).not.toContain('totp-form');
    expect(passkey).toContain('<button type="button" id="use-passkey" class="primary"');
    expect(passkey).not.toContain('class="divider"');
  });

  it('enrols a first factor when one is required: the app (with the QR code and the codes shown once) or a passkey', () => {
    const page = renderSecondFactorPage(contextOf(), { ...pending, factors: [], enrolmentRequired: true });
    expect(page).toContain('<h1 id="page-heading" tabindex="-1">Set up two-step verification</h1>');
    expect(page).toContain('>Set up an authenticator app</button>');
    expect(page).toContain(
      '<img id="app-qr" class="qr-code" width="200" height="200" alt="QR code to add idp to your authenticator app">',
    );
    expect(page).toContain('<div id="codes-reveal" class="codes-reveal" hidden>');
    expect(page).toContain('>Create a passkey</button>');
    const withoutPasskeys = renderSecondFactorPage(contextOf(passkeysOff), {
      ...pending,
      factors: [],
      enrolmentRequired: true,
    });
    expect(withoutPasskeys).toContain('app-start');
    expect(withoutPasskeys).not.toContain('passkey-form');
  });

  it('says a sign-in that awaits nothing any more cannot go on, with a way back to /login and no script', () => {
    const page = renderSecondFactorPage(contextOf(), { ...pending, factors: [], enrolmentRequired: false });
    expect(page).toContain('<h1>This sign-in cannot continue</h1>');
    expect(page).toContain('href="/login?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dweb"');
    expect(page).not.toContain('second-factor.js');
  });

  it('speaks German with the formal address', () => {
    const page = renderSecondFactorPage(contextOf({ i18n: { defaultLocale: 'de', locales: ['de', 'en'] } }), {
      ...pending,
      factors: ['totp', 'recovery_code'],
    });
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('Bestätigen Sie, dass Sie es sind');
    expect(page).toContain('<label for="totp-code">Bestätigungscode</label>');
  });
});

describe("/login/second-factor?step_up=true: a client's second factor", () => {
  const offered = { client: 'Grafana', started: false };

  it('says which application asks, what it will ask, and offers Continue, which the script sends', () => {
    const page = renderSecondFactorPage(contextOf(), { ...pending, factors: ['totp'], stepUp: offered });
    expect(page).toContain('<h1 id="page-heading" tabindex="-1">Grafana asks for a second factor</h1>');
    expect(page).toContain('Signing in as ada@example.com');
    expect(page).toContain('<p class="intro">You signed in with one step only. To continue, confirm it is you');
    expect(page).toContain('<form id="step-up-form" class="form" method="post" novalidate>');
    expect(page).toMatch(/<div class="summary" id="step-up-summary" role="alert" aria-live="assertive"/);
    expect(page).toContain('<button type="submit" class="primary" data-busy-label="Please wait…">Continue</button>');
    expect(page).toContain('>Sign in with another account</button>');
    expect(page).not.toContain('totp-form');
    expect(page).toContain('<script type="module" src="/ui/second-factor.js"></script>');
    expect(dataOf(page).errors).toMatchObject({ STEP_UP_NOT_NEEDED: expect.any(String) });
  });

  it('tells a user without a factor that one is set up next, and names no application it does not know', () => {
    const page = renderSecondFactorPage(contextOf(), {
      ...pending,
      factors: [],
      enrolmentRequired: true,
      stepUp: { client: null, started: false },
    });
    expect(page).toContain('>This application asks for a second factor</h1>');
    expect(page).toContain('<p class="intro">You signed in with one step only, and your account has no second step');
    expect(page).not.toContain('app-start');
  });

  it('once started, shows the factors or the enrolment, saying that the application asks', () => {
    const started = { client: 'Grafana', started: true };
    const factors = renderSecondFactorPage(contextOf(), { ...pending, factors: ['totp'], stepUp: started });
    expect(factors).toContain('<p class="intro">Grafana asks for a second step. Confirm it is you to continue.</p>');
    expect(factors).toContain('totp-form');
    expect(factors).not.toContain('step-up-form');
    const enrol = renderSecondFactorPage(contextOf(), {
      ...pending,
      factors: [],
      enrolmentRequired: true,
      stepUp: started,
    });
    expect(enrol).toContain('<h1 id="page-heading" tabindex="-1">Set up two-step verification</h1>');
    expect(enrol).toContain('<p class="intro">Grafana asks for a second step when you sign in.');
    expect(enrol).not.toContain('<p class="intro">Your organisation asks');
    expect(enrol).toContain('app-start');
  });

  it('speaks German', () => {
    const page = renderSecondFactorPage(contextOf({ i18n: { defaultLocale: 'de', locales: ['de', 'en'] } }), {
      ...pending,
      factors: ['totp'],
      stepUp: offered,
    });
    expect(page).toContain('Grafana verlangt einen zweiten Faktor</h1>');
    expect(page).toContain('>Weiter</button>');
  });
});

describe('the passkey parts of /login and /account', () => {
  const login = {
    clientName: null,
    returnTo: '/oauth2/authorize?client_id=web',
    loginHint: null,
    selectAccount: false,
    errorCode: null,
    providers: [],
    errorProvider: null,
  };
  const user = { email: 'ada@example.com', managedBy: 'database' as const, hasPassword: true };

  it('/login has "Sign in with a passkey" and the way on to the second factor; with passkeys off, neither passkey part', () => {
    const page = renderLoginPage(contextOf(), login);
    expect(page).toContain('>Sign in with a passkey</button>');
    expect(dataOf(page)).toMatchObject({
      passkeys: true,
      secondFactorHref: '/login/second-factor?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dweb',
    });
    const off = renderLoginPage(contextOf(passkeysOff), login);
    expect(off).not.toContain('passkey-sign-in');
    expect(dataOf(off).passkeys).toBe(false);
  });

  it('/account has the authenticator app, recovery codes and passkeys sections; passkeys only while they are on', () => {
    const page = renderAccountPage(contextOf(), user);
    expect(page).toContain('<li><a href="#authenticator-app">Authenticator app</a></li>');
    expect(page).toContain('<li><a href="#recovery-codes">Recovery codes</a></li>');
    expect(page).toContain('<li><a href="#passkeys">Passkeys</a></li>');
    expect(page).toContain('<button type="button" id="app-remove-start" class="danger-outline"');
    expect(page).toContain('<label for="passkey-name">Passkey name</label>');
    expect(renderAccountPage(contextOf(passkeysOff), user)).not.toContain('href="#passkeys"');
  });
});
