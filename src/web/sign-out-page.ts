import { escapeHtml } from './html-variables.js';
import { renderPageShell } from './page-shell.js';

/**
 * The question RP-Initiated Logout 1.0 §2 makes the OP ask when a sign-out
 * request does not come with an ID token of the signed-in session: "Sign
 * out of NAME?". A plain form, so it works without scripts and under a
 * strict Content-Security-Policy (no inline script or style); it posts the
 * request's parameters back to `action` (same origin: the Origin rule
 * guards it), and /ui/sign-out.js only adds progress and a single send.
 * Its referrer policy is same-origin, not the server's no-referrer: under
 * no-referrer a browser sends `Origin: null` with a form post, which the
 * Origin rule must refuse; same-origin still sends nothing (not the
 * id_token_hint in this page's address) to any other site.
 */
export function renderSignOutPage(page: {
  brandingName: string;
  /** The signed-in user's e-mail, so that nobody signs out the wrong account. */
  email: string;
  action: string;
  /** The sign-out request's parameters, posted back unchanged. */
  fields: Readonly<Record<string, string>>;
  /** Where "Cancel" leads (staying signed in); no link when there is nowhere to go. */
  cancelHref: string | null;
}): string {
  const name = escapeHtml(page.brandingName);
  const inputs = Object.entries(page.fields)
    .map(([field, value]) => `\n      <input type="hidden" name="${escapeHtml(field)}" value="${escapeHtml(value)}">`)
    .join('');
  const cancel = page.cancelHref === null ? '' : `\n        <a class="button secondary" href="${escapeHtml(page.cancelHref)}">Cancel</a>`;
  const head = '<meta name="referrer" content="same-origin">\n  <script type="module" src="/ui/sign-out.js"></script>';
  const body = `    <h1>Sign out of ${name}?</h1>
    <p class="account">Signed in as ${escapeHtml(page.email)}</p>
    <form id="sign-out-form" method="post" action="${escapeHtml(page.action)}">${inputs}
      <div class="actions">${cancel}
        <button type="submit">Sign out</button>
      </div>
    </form>`;
  return renderPageShell({ title: 'Sign out', brandingName: page.brandingName, head, body });
}
