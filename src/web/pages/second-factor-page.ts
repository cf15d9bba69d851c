import { formatMessage } from '../../i18n/index.js';
import type { SecondFactor } from '../../accounts/login-second-factors.js';
import { errorSummary, statusRegion, submitButton, textField } from './fields.js';
import { authenticatorAppSetup, codeField, passkeyCreation, recoveryCodesReveal } from './factor-fragments.js';
import { html, type SafeHtml } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

export interface SecondFactorPage {
  /** Who is signing in (the pending session's user). */
  email: string;
  /** What the pending sign-in awaits (POST /api/auth/login's answer); neither: it cannot go on. */
  factors: SecondFactor[];
  enrolmentRequired: boolean;
  /** The validated return_to, or null to end on the start page. */
  returnTo: string | null;
  /**
   * The step-up a client asked for (clientSecondFactor), null for a
   * sign-in: `client` is the name of the application behind return_to (null
   * when it names none); `started` false offers it to the signed-in user
   * (then `factors` and `enrolmentRequired` say what it will ask), true is
   * the pending session it made.
   */
  stepUp: { client: string | null; started: boolean } | null;
}

/**
 * /login/second-factor: the second step of a sign-in that a right password
 * left pending (docs/http-api.md, "Second factors"). With the user's factors: the authenticator
 * app's code, "use a recovery code" instead, or a passkey. With none and a
 * policy that requires one: the enrolment of a first factor, an app (QR
 * code, key, first code, then the recovery codes once) or a passkey, which
 * completes the sign-in. Either way the browser then goes back to
 * return_to, where the sign-in steps decide what comes next.
 * With `step_up=true` and a signed-in session without a second factor (a
 * client requires one: docs/oidc.md, clientSecondFactor), it first says
 * which application asks and offers Continue, which starts the step-up
 * (POST /api/auth/step-up); the page then shows the same factors or
 * enrolment as for a sign-in.
 * /ui/second-factor.js talks to the JSON API.
 */
export function renderSecondFactorPage(context: PageContext, page: SecondFactorPage): string {
  const t = context.text.pages.secondFactor;
  const common = context.text.pages.common;
  const signingInAs = html`
    <p class="account">${formatMessage(t.signingInAs, { email: page.email })}</p>`;
  const otherAccount = html`
    <p class="form-links"><button type="button" id="other-account" class="link-button">${t.otherAccount}</button></p>`;
  const stepUp = page.stepUp && { ...page.stepUp, client: page.stepUp.client ?? t.stepUpClientFallback };
  let body: SafeHtml;
  if (stepUp && !stepUp.started) {
    const intro = page.factors.length > 0 ? t.stepUpIntro : t.stepUpEnrolIntro;
    body = html`    <h1 id="page-heading" tabindex="-1">${formatMessage(t.stepUpHeading, { client: stepUp.client })}</h1>${signingInAs}
    <p class="intro">${intro}</p>
    <form id="step-up-form" class="form" method="post" novalidate>${errorSummary('step-up-summary', common.errorSummary)}${submitButton(t.stepUpStart, t.stepUpStarting)}
    </form>${otherAccount}`;
  } else if (page.factors.length > 0) {
    body = html`    <h1 id="page-heading" tabindex="-1">${t.heading}</h1>${signingInAs}${
      stepUp &&
      html`
    <p class="intro">${formatMessage(t.stepUpFactorsIntro, { client: stepUp.client })}</p>`
    }${
      page.factors.includes('totp') &&
      html`
    <form id="totp-form" class="form" method="post" novalidate>${errorSummary('totp-summary', common.errorSummary)}${codeField({ id: 'totp-code', label: t.codeLabel, hint: t.codeHint })}${submitButton(t.verify, t.verifying)}
    </form>`
    }${
      page.factors.includes('recovery_code') &&
      html`
    <form id="recovery-form" class="form" method="post" novalidate hidden>${errorSummary('recovery-summary', common.errorSummary)}${textField({ id: 'recovery-code', name: 'code', label: t.recoveryLabel, hint: t.recoveryHint, required: true, maxLength: 64, autocomplete: 'off' })}${submitButton(t.verify, t.verifying)}
    </form>
    <div id="recovery-done" hidden>${statusRegion('recovery-status')}
      <div class="stack"><a id="recovery-continue" class="button primary" href="/">${t.continue}</a></div>
    </div>
    <p class="form-links" id="recovery-switch"><button type="button" id="use-recovery" class="link-button">${t.useRecoveryCode}</button><button type="button" id="use-app" class="link-button" hidden>${t.useAuthenticatorApp}</button></p>`
    }${
      page.factors.includes('passkey') &&
      html`
    ${page.factors.length > 1 && html`<p class="divider"><span>${common.or}</span></p>`}
    <div class="inline-action">
      <div class="summary" id="passkey-summary" role="alert" aria-live="assertive" tabindex="-1"></div>
      <button type="button" id="use-passkey" class="${page.factors[0] === 'passkey' && page.factors.length === 1 ? 'primary' : 'secondary'}" data-busy-label="${context.text.pages.factors.passkeyWaiting}">${t.usePasskey}</button>
    </div>`
    }${otherAccount}`;
  } else if (page.enrolmentRequired) {
    const f = context.text.pages.factors;
    body = html`    <h1 id="page-heading" tabindex="-1">${t.enrolHeading}</h1>${signingInAs}
    <p class="intro">${stepUp ? formatMessage(t.stepUpEnrolIntroStarted, { client: stepUp.client }) : t.enrolIntro}</p>
    <section class="enrol-option" id="enrol-app" aria-labelledby="enrol-app-title">
      <h2 id="enrol-app-title">${f.appHeading}</h2>
      <p class="hint">${f.appIntro}</p>${authenticatorAppSetup(context)}${recoveryCodesReveal(context)}
    </section>${
      context.config.auth.passkeysEnabled &&
      html`
    <section class="enrol-option" id="enrol-passkey" aria-labelledby="enrol-passkey-title">
      <h2 id="enrol-passkey-title">${f.passkeyHeading}</h2>
      <p class="hint">${f.passkeyIntro}</p>${passkeyCreation(context, f.passkeyCreate)}
    </section>`
    }${otherAccount}`;
  } else {
    body = html`    <h1>${t.cannotContinueHeading}</h1>
    <p>${t.cannotContinueMessage}</p>
    <div class="stack"><a class="button primary" href="${pageHref(context, '/login', { return_to: page.returnTo })}">${common.signIn}</a></div>`;
  }
  return renderPage(context, {
    task: t.task,
    body,
    script: page.stepUp || page.factors.length > 0 || page.enrolmentRequired ? 'second-factor.js' : undefined,
    data: {
      ...scriptStrings(context),
      secondFactor: t,
      factors: context.text.pages.factors,
      brand: context.config.branding.name,
      email: page.email,
      returnTo: page.returnTo ?? '/',
      appReturnTo: page.returnTo?.startsWith('/') === false ? page.returnTo : null,
      loginHref: pageHref(context, '/login', { return_to: page.returnTo }),
    },
  });
}
