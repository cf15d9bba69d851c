import { html } from './html.js';
import type { PageContext } from './page-context.js';
import { renderPage } from './render-page.js';

/**
 * A page for errors the browser cannot be sent anywhere with: an
 * authorization request from an unknown client or to an unregistered
 * redirect URI (RFC 6749 §4.1.2.1), an unknown page, a refused return_to.
 * `detail` is the protocol error for the application's developer, folded
 * away under "Technical details". `onward` is the way on that the page
 * offers (an unknown page: the start page), so that it is no dead end.
 */
export function renderErrorPage(
  context: PageContext,
  page: { title: string; message: string; detail?: string; onward?: { href: string; label: string } },
): string {
  const body = html`    <h1>${page.title}</h1>
    <p role="alert">${page.message}</p>${
      page.detail &&
      html`
    <details class="details">
      <summary>${context.text.pages.common.technicalDetails}</summary>
      <p><code>${page.detail}</code></p>
    </details>`
    }${
      page.onward &&
      html`
    <div class="stack"><a class="button primary" href="${page.onward.href}">${page.onward.label}</a></div>`
    }`;
  return renderPage(context, { task: page.title, body });
}
