import { errorSummary, statusRegion, submitButton, textField } from './fields.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

/**
 * /verify-email?token=… (the link of the verification mail): /ui/verify-email.js
 * posts the token to POST /api/auth/email/verify and shows the outcome; a
 * link that cannot be used (expired, used, mistyped) offers a new one
 * (POST /api/auth/email/resend). Without a token there is nothing to post:
 * the page opens at the resend form.
 */
export function renderVerifyEmailPage(context: PageContext, page: { hasToken: boolean }): string {
  const t = context.text.pages.verifyEmail;
  const common = context.text.pages.common;
  const body = html`    <div id="verifying"${!page.hasToken && html` hidden`} aria-busy="true">
      <h1>${t.heading}</h1>
      <p class="progress">${t.verifying}</p>
    </div>
    <div id="verified" hidden>
      <h1 tabindex="-1">${t.successHeading}</h1>
      <p>${t.successMessage}</p>
      <a id="verified-continue" class="button primary" href="${pageHref(context, '/login')}">${t.continue}</a>
    </div>
    <div id="verify-failed"${page.hasToken && html` hidden`}>
      <h1 tabindex="-1">${t.failedHeading}</h1>
      <p>${t.failedMessage}</p>
      <form id="resend-form" class="form" method="post" novalidate>${errorSummary('resend-summary', common.errorSummary)}${statusRegion('resend-status')}${textField({ id: 'email', label: common.email, type: 'email', autocomplete: 'email', required: true, maxLength: 320 })}${submitButton(t.resend, t.resending)}
      </form>
      <p class="form-links"><a href="${pageHref(context, '/login')}">${common.backToSignIn}</a></p>
    </div>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: 'verify-email.js',
    data: { ...scriptStrings(context), verifyEmail: t },
  });
}
