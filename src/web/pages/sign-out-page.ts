import { formatMessage } from '../../i18n/index.js';
import { html } from './html.js';
import type { PageContext } from './page-context.js';
import { renderPage } from './render-page.js';

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
export function renderSignOutPage(
  context: PageContext,
  page: {
    /** The signed-in user's e-mail, so that nobody signs out the wrong account. */
    email: string;
    action: string;
    /** The sign-out request's parameters, posted back unchanged. */
    fields: Readonly<Record<string, string>>;
    /** Where "Cancel" leads (staying signed in); no link when there is nowhere to go. */
    cancelHref: string | null;
    /** The application that asks, when the request proves it (src/oidc/end-session, askingClientName). */
    clientName?: string | null;
  },
): string {
  const t = context.text.pages.signOut;
  const inputs = Object.entries(page.fields).map(
    ([field, value]) => html`
      <input type="hidden" name="${field}" value="${value}">`,
  );
  const body = html`    <h1>${formatMessage(t.heading, { brand: context.config.branding.name })}</h1>${
    page.clientName &&
    html`
    <p class="intro">${formatMessage(t.asks, { client: page.clientName })}</p>`
  }
    <p class="account">${formatMessage(t.signedInAs, { email: page.email })}</p>
    <form id="sign-out-form" method="post" action="${page.action}">${inputs}
      <div class="actions">${
        page.cancelHref !== null &&
        html`
        <a class="button secondary" href="${page.cancelHref}">${t.cancel}</a>`
      }
        <button type="submit" class="primary" data-busy-label="${t.submitting}">${t.submit}</button>
      </div>
    </form>`;
  const head = html`
  <meta name="referrer" content="same-origin">`;
  return renderPage(context, { task: t.task, body, head, script: 'sign-out.js' });
}
