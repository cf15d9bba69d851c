import { escapeHtml } from './html-variables.js';

/**
 * A plain HTML page for errors the browser cannot be sent anywhere with:
 * an authorization request from an unknown client or to an unregistered
 * redirect URI (RFC 6749 §4.1.2.1), or an unknown page.
 */
export function renderErrorPage(page: { brandingName: string; title: string; message: string; detail?: string }): string {
  const detail = page.detail ? `\n    <p class="error"><code>${escapeHtml(page.detail)}</code></p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(page.title)} · ${escapeHtml(page.brandingName)}</title>
  <link rel="stylesheet" href="/ui/app.css">
</head>
<body>
  <main class="card">
    <h1>${escapeHtml(page.title)}</h1>
    <p role="alert">${escapeHtml(page.message)}</p>${detail}
  </main>
</body>
</html>
`;
}
