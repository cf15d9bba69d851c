import { errorSummary, submitButton, textField } from './fields.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

/**
 * /forgot-password: one e-mail field posted to POST /api/auth/password/forgot,
 * which answers 202 whether or not the address has an account, so the page
 * says "if an account exists" and never more. Without e-mail delivery
 * (email.enabled false) no link could arrive: the page says so (404).
 */
export function renderForgotPasswordPage(context: PageContext): { status: number; html: string } {
  const t = context.text.pages.forgotPassword;
  const common = context.text.pages.common;
  const back = html`
    <p class="form-links"><a href="${pageHref(context, '/login')}">${common.backToSignIn}</a></p>`;
  if (!context.config.email.enabled) {
    const body = html`    <h1>${t.unavailableHeading}</h1>
    <p>${t.unavailableMessage}</p>${back}`;
    return { status: 404, html: renderPage(context, { task: t.task, body }) };
  }
  const body = html`    <div id="forgot-step">
    <h1>${t.heading}</h1>
    <p class="intro">${t.intro}</p>
    <form id="forgot-form" class="form" method="post" novalidate>${errorSummary('forgot-summary', common.errorSummary)}${textField({ id: 'email', label: common.email, type: 'email', autocomplete: 'username', required: true, maxLength: 320 })}${submitButton(t.submit, t.submitting)}
    </form>
    </div>
    <div id="forgot-sent" hidden>
      <h1 tabindex="-1">${t.sentHeading}</h1>
      <p id="forgot-sent-message"></p>
    </div>${back}`;
  return {
    status: 200,
    html: renderPage(context, {
      task: t.task,
      body,
      script: 'forgot-password.js',
      data: { ...scriptStrings(context), forgotPassword: t },
    }),
  };
}
