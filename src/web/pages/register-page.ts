import { formatMessage } from '../../i18n/index.js';
import { checkboxField, errorSummary, newPasswordField, statusRegion, submitButton, textField } from './fields.js';
import { html, type SafeHtml } from './html.js';
import { pageHref, termContent, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { safeHref } from './safe-href.js';
import { sanitizeNotice } from './sanitize-notice.js';
import { scriptStrings } from './script-strings.js';

export interface RegisterPage {
  clientName: string | null;
  returnTo: string | null;
}

/**
 * /register (docs/http-api.md, "Self-service accounts", POST /api/auth/register): Email, Password, a
 * checkbox per explicit term (required ones must be ticked), the signup
 * notice of the locale (the implicit terms, which registering accepts),
 * Create account. A new account that must verify
 * its address sees "Check your inbox" with a resend button; one that is
 * active at once continues to return_to. With registration off the page
 * says so (and answers 404).
 */
export function renderRegisterPage(context: PageContext, page: RegisterPage): { status: number; html: string } {
  const { text, config } = context;
  const t = text.pages.register;
  const common = text.pages.common;
  const returnTo = { return_to: page.returnTo };
  const signInLink = html`
    <p class="switch">${t.haveAccount} <a href="${pageHref(context, '/login', returnTo)}">${t.signIn}</a></p>`;
  if (!config.registration.enabled) {
    const body = html`    <h1>${t.closedHeading}</h1>
    <p>${t.closedMessage}</p>${signInLink}`;
    return { status: 404, html: renderPage(context, { task: t.closedHeading, body }) };
  }
  const heading = page.clientName ? formatMessage(t.headingClient, { client: page.clientName }) : t.heading;
  const notice = signupNotice(context);
  const body = html`    <div id="register-step">
    <h1>${heading}</h1>
    <form id="register-form" class="form" method="post" novalidate>${errorSummary('register-summary', common.errorSummary)}${textField({ id: 'email', label: common.email, type: 'email', autocomplete: 'email', required: true, maxLength: 320 })}${newPasswordField(context, { id: 'password', label: common.password })}${explicitTerms(context)}${
      notice &&
      html`
      <div class="signup-notice">${notice}</div>`
    }${submitButton(t.submit, t.submitting)}
    </form>${signInLink}
    </div>
    <div id="check-inbox" hidden>
      <h1 tabindex="-1">${t.checkInboxHeading}</h1>
      <p id="check-inbox-message"></p>
      <p class="hint">${t.notReceived}</p>${statusRegion('register-status')}
      <button type="button" id="register-resend" class="secondary" data-busy-label="${t.resending}">${t.resend}</button>
    </div>`;
  return {
    status: 200,
    html: renderPage(context, {
      task: t.task,
      body,
      script: 'register.js',
      data: {
        ...scriptStrings(context),
        register: t,
        returnTo: page.returnTo ?? '/',
        // An app behind forward authentication: the server has checked it against forward_auth.apps.
        appReturnTo: page.returnTo?.startsWith('/') === false ? page.returnTo : null,
        secondFactorHref: pageHref(context, '/login/second-factor', { return_to: page.returnTo }),
      },
    }),
  };
}

/** The notice of the page's locale, else of its language, else of the default locale. */
function signupNotice(context: PageContext): SafeHtml | null {
  const notices: Partial<Record<string, string>> = context.config.registration.signupNotice;
  const language = context.locale.split('-')[0];
  const source = notices[context.locale] ?? notices[language] ?? notices[context.config.i18n.defaultLocale];
  return source ? sanitizeNotice(source) : null;
}

function explicitTerms(context: PageContext): SafeHtml[] {
  const t = context.text.pages.register;
  return context.config.terms
    .filter((term) => term.consentMode === 'explicit')
    .flatMap((term, index) => {
      const content = termContent(term.content, context.locale, context.config.i18n.defaultLocale);
      if (!content) return [];
      const href = content.type === 'link' ? safeHref(content.content) : null;
      const title = href === null ? html`${content.title}` : html`<a href="${href}">${content.title}</a>`;
      // An optional term says so, so that nobody ticks it believing they must.
      const [before, after = ''] = (term.required ? t.acceptTerm : t.acceptOptional).split('{title}');
      const label = html`${before}${title}${after}`;
      const checkbox = checkboxField({
        id: `term-${index}`,
        name: 'accepted_terms',
        value: term.id,
        label,
        required: term.required,
        requiredMessage: formatMessage(t.termRequired, { title: content.title }),
      });
      return content.type === 'text'
        ? [
            checkbox,
            html`
      <div class="term-text">${content.content}</div>`,
          ]
        : [checkbox];
    });
}
