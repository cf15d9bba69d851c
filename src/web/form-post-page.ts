import { escapeHtml } from './html-variables.js';

/**
 * OAuth 2.0 Form Post Response Mode §2: the authorization response as an
 * HTML form that posts itself to the client's redirect URI. A button stays
 * for browsers that do not run scripts.
 */
export function renderFormPostPage(action: string, params: Readonly<Record<string, string>>): string {
  const inputs = Object.entries(params)
    .map(([name, value]) => `    <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Continue</title>
</head>
<body onload="document.forms[0].submit()">
  <form method="post" action="${escapeHtml(action)}">
${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body>
</html>
`;
}
