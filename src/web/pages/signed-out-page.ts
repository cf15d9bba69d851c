import { formatMessage } from '../../i18n/index.js';
import { html } from './html.js';
import type { PageContext } from './page-context.js';
import { renderPage } from './render-page.js';

/**
 * The end of a sign-out (RP-Initiated Logout 1.0 §3). With `continueTo`
 * (a validated post_logout_redirect_uri with its state) the page moves on
 * at once by meta refresh, with a link for browsers that do not: it
 * answers the question's form, and a browser checks a form's redirects
 * against the page's `form-action 'self'`, so a 302 to the relying party
 * would be blocked; a refresh is a plain navigation that no directive of
 * the policy concerns, and needs no script. Without one it offers to sign
 * in again (`signInHref`, where the server has pages), so that the page
 * is no dead end.
 */
export function renderSignedOutPage(
  context: PageContext,
  page: { signedOut: boolean; continueTo: string | null; signInHref: string | null },
): string {
  const t = context.text.pages.signedOut;
  const head =
    page.continueTo === null
      ? undefined
      : html`
  <meta http-equiv="refresh" content="0; url=${page.continueTo}">`;
  const body = html`    <h1>${t.heading}</h1>
    <p>${page.signedOut ? t.signedOut : t.notSignedIn}</p>${
      page.continueTo !== null &&
      html`
    <a class="button primary" href="${page.continueTo}">${formatMessage(t.continueTo, { host: new URL(page.continueTo).host })}</a>`
    }${
      page.continueTo === null &&
      page.signInHref !== null &&
      html`
    <div class="stack"><a class="button primary" href="${page.signInHref}">${context.text.pages.common.signIn}</a></div>`
    }`;
  return renderPage(context, { task: t.task, body, head });
}
