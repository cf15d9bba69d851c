import { errorSummary, newPasswordField, submitButton } from './fields.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

/**
 * /reset-password?token=… (the link of the reset mail): a new password
 * posted with the token to POST /api/auth/password/reset, which ends every
 * session of the account; then a way to sign in. A link that cannot be used
 * (expired, used) says so at once, before anyone types a password, and
 * leads back to /forgot-password for a new one.
 */
export function renderResetPasswordPage(
  context: PageContext,
  page: { link: 'usable' | 'unusable' | 'missing' },
): string {
  const t = context.text.pages.resetPassword;
  const common = context.text.pages.common;
  const newLink = html`<a href="${pageHref(context, '/forgot-password')}">${t.requestNewLink}</a>`;
  const usable = page.link === 'usable';
  const form = usable
    ? html`
    <form id="reset-form" class="form" method="post" novalidate>${errorSummary('reset-summary', common.errorSummary)}${newPasswordField(context, { id: 'password', label: common.newPassword })}${submitButton(t.submit, t.submitting)}
    </form>
    <p class="form-links" id="reset-new-link" hidden>${newLink}</p>`
    : html`
    <p>${page.link === 'missing' ? t.missingToken : t.unusableMessage}</p>
    <p class="form-links">${newLink}</p>`;
  const body = html`    <div id="reset-step">
    <h1>${page.link === 'unusable' ? t.unusableHeading : t.heading}</h1>${form}
    </div>
    <div id="reset-done" hidden>
      <h1 tabindex="-1">${t.doneHeading}</h1>
      <p>${t.doneMessage}</p>
      <a class="button primary" href="${pageHref(context, '/login')}">${common.signIn}</a>
    </div>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: usable ? 'reset-password.js' : undefined,
    data: { ...scriptStrings(context), resetPassword: t },
  });
}
