import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/types.js';
import {
  accountSections,
  renderAccessDeniedErrorPage,
  renderAccessDeniedPage,
  createPageContext,
  renderAccountPage,
  renderConsentErrorPage,
  renderConsentPage,
  renderErrorPage,
  renderForgotPasswordPage,
  renderHomePage,
  renderLoginPage,
  renderRegisterPage,
  renderResetPasswordPage,
  renderSignedOutPage,
  renderSignOutPage,
  renderTermsPage,
  renderVerifyEmailPage,
} from '../../../src/web/index.js';
import { testConfig, testIdentityProvider } from '../../support/config-fixture.js';

/** Rendering of each built-in page (src/web/pages): what it shows for which config and request. In a browser: test/e2e/pages-*.test.ts. */
const contextOf = (overrides: Partial<Config> = {}, query: Record<string, string> = {}, path = '/') =>
  createPageContext(testConfig(overrides), { path, query, acceptLanguage: query.lang ?? null });
const german: Partial<Config> = { i18n: { defaultLocale: 'de', locales: ['de', 'en'] } };
const on: Partial<Config> = {
  registration: {
    enabled: true,
    allowedEmailPatterns: [],
    emailVerificationRequired: true,
    signupNotice: {
      en: 'By signing up you accept the <a href="https://acme.example/rules">rules</a>.<script>x()</script>',
      de: 'Mit der Registrierung akzeptieren Sie die <b>Regeln</b>',
    },
  },
  email: { ...testConfig().email, enabled: true },
};
const dataOf = (page: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]);

describe('/login', () => {
  const login = {
    clientName: null,
    returnTo: null,
    loginHint: null,
    selectAccount: false,
    errorCode: null,
    providers: [],
    errorProvider: null,
  };

  it('is "Sign in" with Email (username webauthn), Password and its toggle, and no links to features that are off', () => {
    const page = renderLoginPage(contextOf(), login);
    expect(page).toContain('<h1>Sign in</h1>');
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toMatch(/<input id="email" name="email" type="email" autocomplete="username webauthn" required/);
    expect(page).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password" required/,
    );
    expect(page).toContain('aria-label="Show password"');
    expect(page).not.toContain('href="/forgot-password"');
    expect(page).not.toContain('href="/register');
    expect(dataOf(page)).toMatchObject({
      returnTo: '/',
      selectAccount: false,
      errors: { INVALID_CREDENTIALS: 'The email or password is incorrect.' },
    });
  });

  it('names the application, prefills the hint, links "Forgot password?" and "Create one" (with return_to) when those are on', () => {
    const page = renderLoginPage(contextOf(on), {
      ...login,
      clientName: 'Acme <Notes>',
      returnTo: '/oauth2/authorize?client_id=notes',
      loginHint: 'ada@example.com',
    });
    expect(page).toContain('<h1>Sign in to Acme &#60;Notes&#62;</h1>');
    expect(page).toContain('value="ada@example.com"');
    expect(page).toContain('<a href="/forgot-password">Forgot password?</a>');
    expect(page).toContain(
      'No account? <a href="/register?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dnotes">Create one</a>',
    );
  });

  it('shows an error code of the address as a sentence, the code in data-code, and an unknown code as the fallback', () => {
    expect(renderLoginPage(contextOf(), { ...login, errorCode: 'REGISTRATION_DISABLED' })).toContain(
      '<p data-code="REGISTRATION_DISABLED">New accounts cannot be created here.</p>',
    );
    expect(renderLoginPage(contextOf(), { ...login, errorCode: '<x>' })).toContain(
      '<p data-code="&#60;x&#62;">Something went wrong. Please try again.</p>',
    );
  });

  it('offers a "Continue with …" link per upstream provider after a divider, to its authorize route with return_to', () => {
    const providers = [
      { id: 'github', displayName: 'GitHub', iconUrl: null },
      { id: 'corp sso', displayName: 'Corp <SSO>', iconUrl: 'https://corp.example/icon.svg' },
    ];
    const page = renderLoginPage(contextOf(), { ...login, providers, returnTo: '/oauth2/authorize?client_id=notes' });
    expect(page).toContain('<p class="divider"><span>or</span></p>');
    expect(page).toContain(
      '<a class="button secondary provider" href="/api/auth/providers/github/authorize?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dnotes">Continue with GitHub</a>',
    );
    expect(page).toContain(
      'href="/api/auth/providers/corp%20sso/authorize?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dnotes"><img src="https://corp.example/icon.svg" alt="" width="20" height="20">Continue with Corp &#60;SSO&#62;</a>',
    );
    expect(renderLoginPage(contextOf(), login)).not.toContain('class="providers"');
  });

  it('names the provider in the callback errors that speak of one (LINK_REQUIRED), in both languages', () => {
    const providers = [{ id: 'github', displayName: 'GitHub', iconUrl: null }];
    expect(
      renderLoginPage(contextOf(), { ...login, providers, errorCode: 'LINK_REQUIRED', errorProvider: 'github' }),
    ).toContain(
      '<p data-code="LINK_REQUIRED">An account with this email address already exists. Sign in to it to connect GitHub.</p>',
    );
    expect(
      renderLoginPage(contextOf(german), { ...login, providers, errorCode: 'LINK_REQUIRED', errorProvider: 'gone' }),
    ).toContain('Melden Sie sich dort an, um den Anbieter zu verbinden.');
    expect(renderLoginPage(contextOf(), { ...login, errorCode: 'UPSTREAM_ERROR' })).toContain(
      '<p data-code="UPSTREAM_ERROR">The sign-in with that provider did not work.',
    );
  });

  it('EMAIL_NOT_VERIFIED naming a provider says no account was created (no mail was sent); without one, to open the mail', () => {
    const providers = [{ id: 'github', displayName: 'GitHub', iconUrl: null }];
    expect(
      renderLoginPage(contextOf(), { ...login, providers, errorCode: 'EMAIL_NOT_VERIFIED', errorProvider: 'github' }),
    ).toContain(
      '<p data-code="EMAIL_NOT_VERIFIED">GitHub does not confirm that this email address is yours, so no account was created.',
    );
    expect(
      renderLoginPage(contextOf(german), {
        ...login,
        providers,
        errorCode: 'EMAIL_NOT_VERIFIED',
        errorProvider: 'github',
      }),
    ).toContain('GitHub bestätigt nicht, dass diese E-Mail-Adresse Ihnen gehört');
    // A provider the page does not know (removed since): a sentence that opens with a capital, in both languages.
    const unknown = { ...login, errorCode: 'EMAIL_NOT_VERIFIED', errorProvider: 'gone' };
    expect(renderLoginPage(contextOf(), unknown)).toContain(
      '<p data-code="EMAIL_NOT_VERIFIED">Your provider does not confirm that this email address is yours',
    );
    expect(renderLoginPage(contextOf(german), unknown)).toContain(
      '<p data-code="EMAIL_NOT_VERIFIED">Ihr Anbieter bestätigt nicht, dass diese E-Mail-Adresse Ihnen gehört',
    );
    expect(renderLoginPage(contextOf(), { ...login, errorCode: 'EMAIL_NOT_VERIFIED' })).toContain(
      '<p data-code="EMAIL_NOT_VERIFIED">Confirm your email address first: open the link we sent you.</p>',
    );
  });

  it('speaks German with lang="de"', () => {
    const page = renderLoginPage(contextOf(german), { ...login, clientName: 'Notizen' });
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<h1>Bei Notizen anmelden</h1>');
    expect(page).toContain('<label for="password">Passwort</label>');
  });
});

describe('/register', () => {
  const terms: Config['terms'] = [
    {
      id: 'tos',
      required: true,
      consentMode: 'explicit',
      version: '1',
      content: { en: { title: 'Terms', type: 'link', content: 'https://acme.example/terms' } },
    },
    {
      id: 'news',
      required: false,
      consentMode: 'explicit',
      version: '1',
      content: { en: { title: 'Newsletter', type: 'text', content: 'Monthly <news>.' } },
    },
    {
      id: 'privacy',
      required: true,
      consentMode: 'implicit',
      version: '1',
      content: { en: { title: 'Privacy', type: 'link', content: 'https://acme.example/privacy' } },
    },
    { id: 'empty', required: false, consentMode: 'explicit', version: '1', content: {} },
  ];

  it('is closed (404) while registration is off', () => {
    const page = renderRegisterPage(contextOf(), { clientName: null, returnTo: null });
    expect(page.status).toBe(404);
    expect(page.html).toContain('<h1>Registration is closed</h1>');
    expect(page.html).not.toContain('register.js');
  });

  it('asks for Email and a new password with its minimum, a checkbox per explicit term, and the sanitised notice', () => {
    const page = renderRegisterPage(contextOf({ ...on, terms }), {
      clientName: 'Notes',
      returnTo: '/oauth2/authorize?x=1',
    });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Create an account for Notes</h1>');
    expect(page.html).toMatch(
      /<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8"/,
    );
    expect(page.html).toContain('<p class="hint" id="password-hint">At least 8 characters.</p>');
    expect(page.html).toContain(
      '<input id="term-0" name="accepted_terms" type="checkbox" value="tos" required data-required-message="Accept “Terms” to continue.">',
    );
    expect(page.html).toContain(
      '<label for="term-0">I have read and accept: <a href="https://acme.example/terms">Terms</a></label>',
    );
    expect(page.html).toContain(
      '<input id="term-1" name="accepted_terms" type="checkbox" value="news" data-required-message=',
    );
    // Required and optional terms read differently: an optional one says so.
    expect(page.html).toContain('<label for="term-1">I also accept (optional): Newsletter</label>');
    expect(page.html).toContain('<div class="term-text">Monthly &#60;news&#62;.</div>');
    expect(page.html).not.toContain('term-3');
    expect(page.html).toContain(
      '<div class="signup-notice">By signing up you accept the <a href="https://acme.example/rules">rules</a>.x()</div>',
    );
    expect(page.html).toContain(
      'Already have an account? <a href="/login?return_to=%2Foauth2%2Fauthorize%3Fx%3D1">Sign in</a>',
    );
    expect(dataOf(page.html)).toMatchObject({ returnTo: '/oauth2/authorize?x=1', passwordMinLength: 8 });
  });

  it("shows the notice of the page's language, else of the default locale, else none", () => {
    expect(renderRegisterPage(contextOf({ ...on, ...german }), { clientName: null, returnTo: null }).html).toContain(
      '<div class="signup-notice">Mit der Registrierung akzeptieren Sie die <b>Regeln</b></div>',
    );
    const frenchDefault = { ...on, i18n: { defaultLocale: 'fr', locales: ['fr'] } };
    expect(renderRegisterPage(contextOf(frenchDefault), { clientName: null, returnTo: null }).html).not.toContain(
      'signup-notice',
    );
  });
});

describe('the link pages', () => {
  it("/verify-email waits for the token's answer, or opens at the resend form without one", () => {
    const withToken = renderVerifyEmailPage(contextOf(), { hasToken: true });
    expect(withToken).toContain('<div id="verifying" aria-busy="true">');
    expect(withToken).toContain('<div id="verify-failed" hidden>');
    const without = renderVerifyEmailPage(contextOf(), { hasToken: false });
    expect(without).toContain('<div id="verifying" hidden aria-busy="true">');
    expect(without).toContain('<div id="verify-failed">');
  });

  it('/forgot-password asks for the e-mail, or says it is unavailable (404) without e-mail delivery', () => {
    const page = renderForgotPasswordPage(contextOf(on));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Forgot your password?</h1>');
    const off = renderForgotPasswordPage(contextOf());
    expect(off.status).toBe(404);
    expect(off.html).toContain('<h1>Password reset is not available</h1>');
  });

  it('/reset-password asks for the new password, or for the link without a token, or for a new one', () => {
    expect(renderResetPasswordPage(contextOf(), { link: 'usable' })).toContain(
      '<label for="password">New password</label>',
    );
    const without = renderResetPasswordPage(contextOf(), { link: 'missing' });
    expect(without).toContain('This page needs the link from the email we sent you.');
    expect(without).not.toContain('reset-password.js');
    const unusable = renderResetPasswordPage(contextOf(), { link: 'unusable' });
    expect(unusable).toContain('<h1>This link cannot be used</h1>');
    expect(unusable).not.toContain('<label for="password">');
  });
});

describe('/account', () => {
  const database = { email: 'ada@example.com', managedBy: 'database' as const, hasPassword: true };
  const deletion = { accountDeletion: { enabled: true, gracePeriodDays: 14 } };

  it('has a table of contents entry per section shown, the password form with the current password, and the danger zone', () => {
    const page = renderAccountPage(contextOf(deletion), database);
    expect(page).toContain('<li><a href="#profile">Profile</a></li>');
    expect(page).toContain('<li><a href="#password">Password</a></li>');
    expect(page).toContain('<li><a href="#delete-account">Delete account</a></li>');
    expect(page).toContain('<label for="current-password">Current password</label>');
    expect(page).toContain('Your data is erased for good after 14 days.');
    expect(page).toContain('<label for="delete-password">Password</label>');
    expect(page).toContain('<p class="account-email">Signed in as ada@example.com</p>');
  });

  it('without a password: no current password, "Set password", and deletion confirmed by a recent sign-in', () => {
    const page = renderAccountPage(contextOf(deletion), { ...database, hasPassword: false });
    expect(page).not.toContain('current-password');
    expect(page).toContain('Set password');
    expect(page).not.toContain('delete-password');
    expect(page).toContain('within the last 10 minutes');
  });

  it('hides the danger zone when deletion is off or the user is config-managed, whose password is not editable either', () => {
    expect(renderAccountPage(contextOf(), database)).not.toContain('delete-account');
    const config = renderAccountPage(contextOf(deletion), { ...database, managedBy: 'config' });
    expect(config).not.toContain('delete-account');
    expect(config).not.toContain('password-form');
    expect(config).toContain('Your organisation manages your password');
  });

  it('offers a language choice only with several locales', () => {
    expect(renderAccountPage(contextOf(), database)).not.toContain('profile-locale');
    expect(renderAccountPage(contextOf(german), database)).toContain('<option value="de" lang="de">Deutsch</option>');
  });

  it('keeps its sections in the order of docs/ui.md', () => {
    expect(accountSections.map((section) => section.id)).toEqual([
      'profile',
      'password',
      'authenticator-app',
      'recovery-codes',
      'passkeys',
      'connections',
      'apps',
      'groups',
      'terms',
      'delete-account',
    ]);
  });

  it('has "Groups" while the config has groups, for /ui/account-groups.js to fill from GET /api/user/groups', () => {
    expect(renderAccountPage(contextOf(), database)).not.toContain('href="#groups"');
    const sre = { id: 'sre', name: 'Site reliability', description: null, upstream: [], members: [] };
    const page = renderAccountPage(contextOf({ groups: [sre] }), database);
    expect(page).toContain('<li><a href="#groups">Groups</a></li>');
    expect(page).toContain('<ul id="groups-list" class="item-list" aria-busy="true"></ul>');
    expect(page).toContain('<p id="groups-none" class="note" hidden>You are not in any group.</p>');
    expect(dataOf(page).account.groups.sources).toEqual({
      config: 'Set by your organisation',
      database: 'Added by an administrator',
      upstream: 'From your sign-in provider',
    });
    expect(renderAccountPage(contextOf({ ...german, groups: [sre] }), database)).toContain(
      '<li><a href="#groups">Gruppen</a></li>',
    );
  });

  it('has "Connected providers" while the config has upstream providers, for /ui/account-connections.js to fill', () => {
    expect(renderAccountPage(contextOf(), database)).not.toContain('href="#connections"');
    const page = renderAccountPage(contextOf({ identityProviders: [testIdentityProvider()] }), database);
    expect(page).toContain('<li><a href="#connections">Connected providers</a></li>');
    expect(page).toContain('<ul id="connection-list" class="item-list"></ul>');
    expect(dataOf(page).account.connections).toMatchObject({ connect: 'Connect {provider}', disconnect: 'Disconnect' });
  });
});

describe('/consent', () => {
  it('names the application, where the answer goes, the scopes as sentences and who is signed in', () => {
    const page = renderConsentPage(contextOf(), {
      clientName: 'Notes',
      redirectUri: 'https://notes.example.com:8443/cb',
      scopes: ['openid', 'email', 'read:files'],
      groups: null,
      email: 'ada@example.com',
      returnTo: '/oauth2/authorize?client_id=notes',
    });
    expect(page).toContain('<h1>Allow Notes to access your account?</h1>');
    expect(page).toContain('<li>Sign you in with your account</li>');
    expect(page).toContain('<li>See your email address</li>');
    expect(page).toContain('<li>Use “read:files”</li>');
    expect(page).toContain('You will return to notes.example.com:8443.');
    expect(page).toContain(
      'Signed in as ada@example.com — <a href="/login?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dnotes&#38;select_account=true">Not you?</a>',
    );
  });

  it("names a native app's custom scheme when its redirect URI has no host", () => {
    const page = renderConsentPage(contextOf(), {
      clientName: 'App',
      redirectUri: 'com.example.app:/cb',
      scopes: [],
      groups: null,
      email: 'a@b.c',
      returnTo: '/oauth2/authorize',
    });
    expect(page).toContain('You will return to com.example.app.');
  });

  it('names the groups the application will see when it asks for the groups scope, in the page language', () => {
    const page = (groups: string[], overrides: Partial<Config> = {}) =>
      renderConsentPage(contextOf(overrides), {
        clientName: 'Grafana',
        redirectUri: 'https://grafana.example.com/cb',
        scopes: ['openid', 'groups'],
        groups,
        email: 'ada@example.com',
        returnTo: '/oauth2/authorize',
      });
    expect(page(['Developers', 'Site <reliability>'])).toContain(
      '<li><span class="scope-text">See which groups you are in<span class="scope-detail" id="consent-groups">Your groups: Developers, Site &#60;reliability&#62;</span></span></li>',
    );
    expect(page([])).toContain('<span class="scope-detail" id="consent-groups">You are not in any group.</span>');
    const german = { i18n: { defaultLocale: 'de', locales: ['de'] } };
    expect(page(['Entwicklung'], german)).toContain(
      'Sehen, in welchen Gruppen Sie sind<span class="scope-detail" id="consent-groups">Ihre Gruppen: Entwicklung</span>',
    );
    expect(page([], german)).toContain('Sie sind in keiner Gruppe.');
    // Without the user's groups (none were read) the scope is a sentence alone.
    const unread = renderConsentPage(contextOf(), {
      clientName: 'Grafana',
      redirectUri: 'https://grafana.example.com/cb',
      scopes: ['groups'],
      groups: null,
      email: 'ada@example.com',
      returnTo: '/oauth2/authorize',
    });
    expect(unread).toContain('<li>See which groups you are in</li>');
  });

  it('without a valid request says so in a sentence, keeping the code', () => {
    expect(renderConsentErrorPage(contextOf(), 'INVALID_RETURN_TO')).toContain(
      '<p class="summary" role="alert" data-code="INVALID_RETURN_TO">This page was opened without a valid request.',
    );
  });
});

describe('/access-denied', () => {
  const page = {
    email: 'bob@example.com',
    clientName: 'Grafana <Ops>',
    returnTo: '/oauth2/authorize?client_id=grafana&state=s',
    backTo: '/oauth2/authorize?client_id=grafana&state=s&access_denied=true',
  };

  it('says who has no access to which application, with "Use another account" and "Back to", links both', () => {
    const html = renderAccessDeniedPage(contextOf(), page);
    expect(html).toContain('<title>No access · idp</title>');
    expect(html).toContain('<h1>bob@example.com has no access to Grafana &#60;Ops&#62;</h1>');
    expect(html).toContain(
      '<a id="another-account" class="button primary" href="/login?return_to=%2Foauth2%2Fauthorize%3Fclient_id%3Dgrafana%26state%3Ds&#38;select_account=true">Use another account</a>',
    );
    expect(html).toContain(
      '<a id="back-to-client" class="button secondary" href="/oauth2/authorize?client_id=grafana&#38;state=s&#38;access_denied=true">Back to Grafana &#60;Ops&#62;</a>',
    );
    expect(html).not.toContain('<script type="module" src="/ui/access');
  });

  it('speaks German, and keeps an explicit language choice on the way to the sign-in', () => {
    const html = renderAccessDeniedPage(contextOf(german, { locale: 'de' }), page);
    expect(html).toContain('<h1>bob@example.com hat keinen Zugriff auf Grafana &#60;Ops&#62;</h1>');
    expect(html).toContain('select_account=true&#38;locale=de">Anderes Konto verwenden</a>');
    expect(html).toContain('>Zurück zu Grafana &#60;Ops&#62;</a>');
  });

  it('without a valid request says so in a sentence, keeping the code', () => {
    expect(renderAccessDeniedErrorPage(contextOf())).toContain(
      '<p class="summary" role="alert" data-code="INVALID_RETURN_TO">This page was opened without a valid request.',
    );
  });
});

describe('the other pages', () => {
  it('/ offers sign-in (and registration when on) to a visitor, the account and sign-out to a signed-in user', () => {
    const visitor = renderHomePage(contextOf(on), { email: null });
    expect(visitor).toContain('<a class="button primary" href="/login">Sign in</a>');
    expect(visitor).toContain('<a class="button secondary" href="/register">Create account</a>');
    expect(visitor).not.toContain('home.js');
    const signedIn = renderHomePage(contextOf(), { email: 'ada@example.com' });
    expect(signedIn).toContain('You are signed in as ada@example.com.');
    expect(signedIn).toContain('<a class="button primary" href="/account">Manage your account</a>');
  });

  it('declares the icon an SVG, so that a browser does not judge it by the .ico of its address', () => {
    expect(renderHomePage(contextOf(), { email: null })).toContain(
      '<link rel="icon" type="image/svg+xml" href="/favicon.ico">',
    );
  });

  it('the error page folds the technical detail away', () => {
    const page = renderErrorPage(contextOf(), { title: 'Oops', message: 'Bad.', detail: 'invalid_request: <x>' });
    expect(page).toContain('<summary>Technical details</summary>');
    expect(page).toContain('<code>invalid_request: &#60;x&#62;</code>');
    expect(renderErrorPage(contextOf(), { title: 'Oops', message: 'Bad.' })).not.toContain('<details');
  });

  it('the error page offers the way onward it is given', () => {
    const page = renderErrorPage(contextOf(), { title: 'Gone', message: 'No.', onward: { href: '/', label: 'Home' } });
    expect(page).toContain('<a class="button primary" href="/">Home</a>');
    expect(renderErrorPage(contextOf(), { title: 'Gone', message: 'No.' })).not.toContain('class="button');
  });

  it('the sign-out question escapes what it shows and carries, and leaves out Cancel when there is nowhere to go', () => {
    const page = renderSignOutPage(contextOf({ branding: { name: 'A<b>', logoUrl: null, primaryColor: null } }), {
      email: 'x"@y',
      action: '/oauth2/logout/confirm',
      fields: { state: '"><script>' },
      cancelHref: null,
    });
    expect(page).toContain('<title>Sign out · A&#60;b&#62;</title>');
    expect(page).toContain('<h1>Sign out of A&#60;b&#62;?</h1>');
    expect(page).toContain('Signed in as x&#34;@y');
    expect(page).toContain('<input type="hidden" name="state" value="&#34;&#62;&#60;script&#62;">');
    expect(page).not.toContain('Cancel');
    expect(page).not.toContain('asks you to sign out');
    const named = renderSignOutPage(contextOf(), {
      email: 'a@b.c',
      action: '/x',
      fields: {},
      cancelHref: '/',
      clientName: 'Acme <Notes>',
    });
    expect(named).toContain('<p class="intro">Acme &#60;Notes&#62; asks you to sign out.</p>');
    expect(
      renderSignOutPage(contextOf(german), { email: 'a@b.c', action: '/x', fields: {}, cancelHref: '/' }),
    ).toContain('<a class="button secondary" href="/">Abbrechen</a>');
  });

  it('the signed-out page says "not signed in" without a session, and moves on only with a redirect', () => {
    const page = renderSignedOutPage(contextOf(), { signedOut: false, continueTo: null, signInHref: '/login' });
    expect(page).toContain('You are not signed in.');
    expect(page).not.toContain('http-equiv');
    // Nowhere to return to: the page still offers a way on.
    expect(page).toContain('<a class="button primary" href="/login">Sign in</a>');
    const onward = renderSignedOutPage(contextOf(), {
      signedOut: true,
      continueTo: 'https://rp.example/bye?state=a&b=1',
      signInHref: '/login',
    });
    expect(onward).not.toContain('href="/login"');
    expect(renderSignedOutPage(contextOf(), { signedOut: true, continueTo: null, signInHref: null })).not.toContain(
      'class="button',
    );
    expect(onward).toContain('<meta http-equiv="refresh" content="0; url=https://rp.example/bye?state=a&#38;b=1">');
    expect(onward).toContain('Continue to rp.example');
  });
});

describe('/terms', () => {
  const term = (
    id: string,
    required: boolean,
    consentMode: 'explicit' | 'implicit',
    type: 'link' | 'text',
    content: string,
  ) => ({
    id,
    required,
    consentMode,
    version: '2',
    content: { en: { title: `Title ${id}`, type, content } },
    createdAt: 0,
    updatedAt: 0,
  });

  it('asks for required terms with a checkbox each, offers optional ones, shows text as text and names implicit ones', () => {
    const page = renderTermsPage(contextOf(), {
      clientName: 'Notes',
      returnTo: '/oauth2/authorize?client_id=notes',
      required: [
        term('tos', true, 'explicit', 'link', 'https://example.com/tos'),
        term('rules', true, 'explicit', 'text', '<script>alert(1)</script>'),
      ],
      optional: [term('news', false, 'explicit', 'link', 'javascript:alert(1)')],
      implicit: [term('privacy', false, 'implicit', 'link', 'https://example.com/privacy')],
    });
    expect(page).toContain('<h1>Before you continue to Notes</h1>');
    expect(page).toContain('<a href="https://example.com/tos" target="_blank" rel="noopener noreferrer">Title tos</a>');
    expect(page).toContain('<input id="term-tos" name="terms" type="checkbox" value="tos" required');
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    // A link that is not http(s) is shown as its title alone.
    expect(page).not.toContain('javascript:');
    expect(page).toContain('By continuing you accept the updated Title privacy.');
  });

  it('shows the signup notice, sanitised, for implicit terms when there is one, and says the terms changed when none is required', () => {
    const registration = {
      ...testConfig().registration,
      signupNotice: { en: 'See our <a href="https://example.com/p">notice</a><script>x()</script>' },
    };
    const page = renderTermsPage(contextOf({ registration }), {
      clientName: null,
      returnTo: '/oauth2/authorize?x=1',
      required: [],
      optional: [],
      implicit: [term('privacy', false, 'implicit', 'text', 'Little.')],
    });
    expect(page).toContain('<h1>Before you continue</h1>');
    expect(page).toContain('Our terms have changed since you last signed in.');
    expect(page).toContain('<div class="notice">See our <a href="https://example.com/p">notice</a>x()</div>');
  });
});
