import { escapeHtml } from './html-variables.js';
import { renderPageShell } from './page-shell.js';

/**
 * The end of a sign-out (RP-Initiated Logout 1.0 §3). With `continueTo`
 * (a validated post_logout_redirect_uri with its state) the page moves on
 * at once by meta refresh, with a link for browsers that do not: it
 * answers the question's form, and a browser checks a form's redirects
 * against the page's `form-action 'self'`, so a 302 to the relying party
 * would be blocked; a refresh is a plain navigation that no directive of
 * the policy concerns, and needs no script.
 */
export function renderSignedOutPage(page: { brandingName: string; signedOut: boolean; continueTo: string | null }): string {
  const message = page.signedOut ? 'You have been signed out.' : 'You are not signed in.';
  const target = page.continueTo === null ? null : escapeHtml(page.continueTo);
  const head = target === null ? undefined : `<meta http-equiv="refresh" content="0; url=${target}">`;
  const link = target === null ? '' : `\n    <a class="button" href="${target}">Continue to ${escapeHtml(new URL(page.continueTo!).host)}</a>`;
  const body = `    <h1>Signed out</h1>
    <p>${message}</p>${link}`;
  return renderPageShell({ title: 'Signed out', brandingName: page.brandingName, head, body });
}
