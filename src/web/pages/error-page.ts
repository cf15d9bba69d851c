import { html } from './html.js';
import type { PageContext } from './page-context.js';
import { renderPage } from './render-page.js';

/**
 * A page for errors the browser cannot be sent anywhere with: an
 * authorization request from an unknown client or to an unregistered
 * redirect URI (RFC 6749 §4.1.2.1), an unknown page, a refused return_to.
 * `detail` is the protocol error for the application's developer, folded
 * away under "Technical details".
 */
export function renderErrorPage(
  context: PageContext,
  page: { title: string; message: string; detail?: string },
): string {
  const body = html`    <h1>${page.title}</h1>
    <p role="alert">${page.message}</p>${
      page.detail &&
      html`
    <details class="details">
      <summary>${context.text.pages.common.technicalDetails}</summary>
      <p><code>${page.detail}</code></p>
    </details>`
    }`;
  return renderPage(context, { task: page.title, body });
}
