import { formatMessage } from '../../i18n/index.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { errorSentence } from './script-strings.js';

export interface AccessDeniedPage {
  /** The signed-in user's e-mail: whose account has no access. */
  email: string;
  clientName: string;
  /** The authorization request, where "Use another account" returns after the sign-in. */
  returnTo: string;
  /** The same request with access_denied=true: the client gets error=access_denied and its state. */
  backTo: string;
}

/**
 * /access-denied (the access step, `clients[].access`): "{user} has no access
 * to {client}", then **Use another account** (the sign-in page offering the
 * remembered accounts, back to the same request) and **Back to {client}**
 * (the request again, which the access step ends with access_denied).
 * Both are links: the page needs no script, and works without one.
 */
export function renderAccessDeniedPage(context: PageContext, page: AccessDeniedPage): string {
  const t = context.text.pages.accessDenied;
  const client = { client: page.clientName };
  const anotherAccount = pageHref(context, '/login', { return_to: page.returnTo, select_account: 'true' });
  const body = html`    <h1>${formatMessage(t.heading, { user: page.email, ...client })}</h1>
    <p class="intro">${formatMessage(t.explanation, client)}</p>
    <div class="stack">
      <a id="another-account" class="button primary" href="${anotherAccount}">${t.anotherAccount}</a>
      <a id="back-to-client" class="button secondary" href="${page.backTo}">${formatMessage(t.back, client)}</a>
    </div>`;
  return renderPage(context, { task: t.task, body });
}

/** /access-denied without a valid authorization request behind it. */
export function renderAccessDeniedErrorPage(context: PageContext): string {
  const t = context.text.pages.accessDenied;
  const body = html`    <h1>${t.task}</h1>
    <p class="summary" role="alert" data-code="INVALID_RETURN_TO">${errorSentence(context, 'INVALID_RETURN_TO')}</p>`;
  return renderPage(context, { task: t.task, body });
}
