import { escapeHtml } from './html-variables.js';

/**
 * The frame every page the server renders itself shares (errors, sign-out):
 * the document head with the built-in stylesheet and a `Title · Brand`
 * title, and one card. `head` and `body` are HTML the caller escaped.
 */
export function renderPageShell(page: { title: string; brandingName: string; head?: string; body: string }): string {
  const head = page.head ? `\n  ${page.head}` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">${head}
  <title>${escapeHtml(page.title)} · ${escapeHtml(page.brandingName)}</title>
  <link rel="stylesheet" href="/ui/app.css">
</head>
<body>
  <main class="card">
${page.body}
  </main>
</body>
</html>
`;
}
