import { logoHref } from '../../config/index.js';
import { formatMessage } from '../../i18n/index.js';
import { errorSummary, passwordField, statusRegion, submitButton, textField } from './fields.js';
import { html, type SafeHtml } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { errorSentence, scriptStrings } from './script-strings.js';

export interface LoginPage {
  /** The application of the authorization request that sent the browser here, if any. */
  clientName: string | null;
  /** The validated return_to (an authorization request), or null to end on the start page. */
  returnTo: string | null;
  loginHint: string | null;
  /** prompt=select_account: offer the accounts remembered in this browser first. */
  selectAccount: boolean;
  /** `?error=CODE` of a sign-in that ended here (an upstream provider's callback). */
  errorCode: string | null;
  /** The usable upstream identity providers, one button each (GET /api/auth/providers). */
  providers: LoginProvider[];
  /** `?provider=` of a callback error: the provider its sentence names (LINK_REQUIRED). */
  errorProvider: string | null;
}

export interface LoginProvider {
  id: string;
  displayName: string;
  iconUrl: string | null;
}

/**
 * /login (docs/ui.md, "Names tests and front ends rely on"), top to bottom: heading, the error banner, the
 * remembered accounts (select_account), Email, Password with its toggle,
 * Sign in, "Forgot password?" (with e-mail on), a divider and "Sign in with
 * a passkey" (with passkeys on), and "No account? Create one" (with
 * registration on). Upstream providers go after the passkey. /ui/login.js
 * posts to POST /api/auth/login, and goes on to /login/second-factor when
 * the sign-in waits for a second factor; the e-mail field also offers
 * passkeys through the browser's autofill (conditional mediation).
 */
export function renderLoginPage(context: PageContext, page: LoginPage): string {
  const { text, config } = context;
  const t = text.pages.login;
  const common = text.pages.common;
  const heading = page.clientName ? formatMessage(t.headingClient, { client: page.clientName }) : t.heading;
  const named = page.providers.find((p) => p.id === page.errorProvider)?.displayName;
  const providerName = named ?? t.providerFallback;
  // EMAIL_NOT_VERIFIED naming a provider: an upstream sign-up refused for an unverified address, and no mail was sent.
  // The provider opens that sentence, so an unknown one gets a sentence of its own rather than the mid-sentence fallback.
  const upstreamSentence = named === undefined ? t.upstreamEmailNotVerifiedUnnamed : t.upstreamEmailNotVerified;
  const sentence =
    page.errorCode === 'EMAIL_NOT_VERIFIED' && page.errorProvider !== null
      ? upstreamSentence
      : errorSentence(context, page.errorCode ?? '');
  const banner = page.errorCode
    ? { code: page.errorCode, message: formatMessage(sentence, { provider: providerName }) }
    : null;
  const returnTo = { return_to: page.returnTo };
  const body = html`    <h1>${heading}</h1>
    <section id="accounts" class="accounts" hidden aria-labelledby="accounts-title">
      <h2 id="accounts-title">${t.chooseAccount}</h2>
      <ul id="account-list" class="account-list"></ul>
      <p class="divider"><span>${t.useAnotherAccount}</span></p>
    </section>
    <form id="login-form" class="form" method="post" novalidate>${errorSummary('login-summary', common.errorSummary, banner)}
      <div id="resend-verification" class="inline-action" hidden>
        <button type="button" id="resend-button" class="secondary" data-busy-label="${t.resending}">${t.resendVerification}</button>
      </div>${statusRegion('login-status')}${textField({ id: 'email', label: common.email, type: 'email', autocomplete: 'username webauthn', required: true, value: page.loginHint, maxLength: 320 })}${passwordField(context, { id: 'password', label: common.password, autocomplete: 'current-password', required: true, maxLength: 1024 })}${submitButton(t.submit, t.submitting)}
    </form>${
      config.email.enabled &&
      html`
    <p class="form-links"><a href="${pageHref(context, '/forgot-password')}">${t.forgotPassword}</a></p>`
    }${
      config.auth.passkeysEnabled &&
      html`
    <p class="divider"><span>${common.or}</span></p>
    <div class="stack">
      <button type="button" id="passkey-sign-in" class="secondary" data-busy-label="${t.passkeyWorking}">${t.passkey}</button>
    </div>`
    }${providerButtons(context, page, !config.auth.passkeysEnabled)}${registrationLink(context, returnTo)}`;
  return renderPage(context, {
    task: t.task,
    body,
    script: 'login.js',
    data: {
      ...scriptStrings(context),
      login: t,
      factors: {
        passkeyNotUsed: text.pages.factors.passkeyNotUsed,
        passkeyUnsupported: text.pages.factors.passkeyUnsupported,
      },
      returnTo: page.returnTo ?? '/',
      // An app behind forward authentication: the server has checked it against forward_auth.apps.
      appReturnTo: page.returnTo?.startsWith('/') === false ? page.returnTo : null,
      secondFactorHref: pageHref(context, '/login/second-factor', { return_to: page.returnTo }),
      selectAccount: page.selectAccount,
      passkeys: config.auth.passkeysEnabled,
    },
  });
}

/**
 * docs/ui.md, "Names tests and front ends rely on": after a divider, one outlined button per upstream provider. They
 * are links: the authorize route is a navigation that ends at the upstream,
 * and comes back to the same return_to.
 */
/** One "Continue with …" per provider; under the passkey button, which has its divider already, without another. */
function providerButtons(context: PageContext, page: LoginPage, divider: boolean): SafeHtml {
  if (page.providers.length === 0) return html``;
  const t = context.text.pages.login;
  const query = new URLSearchParams({ return_to: page.returnTo ?? '/' }).toString();
  return html`${
    divider &&
    html`
    <p class="divider"><span>${t.or}</span></p>`
  }
    <ul class="providers">${page.providers.map(
      (provider) => html`
      <li><a class="button secondary provider" href="/api/auth/providers/${encodeURIComponent(provider.id)}/authorize?${query}">${iconOf(provider) && html`<img src="${iconOf(provider)}" alt="" width="20" height="20">`}${formatMessage(t.continueWith, { provider: provider.displayName })}</a></li>`,
    )}
    </ul>`;
}

/** icon_url as an image source the page policy allows (src/http/page-policy.ts widens img-src for it), or none. */
const iconOf = (provider: LoginProvider) => (provider.iconUrl === null ? null : logoHref(provider.iconUrl));

function registrationLink(context: PageContext, returnTo: Record<string, string | null>): SafeHtml {
  if (!context.config.registration.enabled) return html``;
  const t = context.text.pages.login;
  return html`
    <p class="switch">${t.noAccount} <a href="${pageHref(context, '/register', returnTo)}">${t.createAccount}</a></p>`;
}
