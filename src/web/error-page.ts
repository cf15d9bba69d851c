import { escapeHtml } from './html-variables.js';
import { renderPageShell } from './page-shell.js';

/**
 * A plain HTML page for errors the browser cannot be sent anywhere with:
 * an authorization request from an unknown client or to an unregistered
 * redirect URI (RFC 6749 §4.1.2.1), or an unknown page.
 */
export function renderErrorPage(page: { brandingName: string; title: string; message: string; detail?: string }): string {
  const detail = page.detail ? `\n    <p class="error"><code>${escapeHtml(page.detail)}</code></p>` : '';
  const body = `    <h1>${escapeHtml(page.title)}</h1>
    <p role="alert">${escapeHtml(page.message)}</p>${detail}`;
  return renderPageShell({ title: page.title, brandingName: page.brandingName, body });
}
