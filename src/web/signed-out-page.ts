import { escapeHtml } from './html-variables.js';

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
  const name = escapeHtml(page.brandingName);
  const message = page.signedOut ? 'You have been signed out.' : 'You are not signed in.';
  const target = page.continueTo === null ? null : escapeHtml(page.continueTo);
  const refresh = target === null ? '' : `\n  <meta http-equiv="refresh" content="0; url=${target}">`;
  const link = target === null ? '' : `\n    <a class="button" href="${target}">Continue to ${escapeHtml(new URL(page.continueTo!).host)}</a>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
  <title>Signed out · ${name}</title>
  <link rel="stylesheet" href="/ui/app.css">
</head>
<body>
  <main class="card">
    <h1>Signed out</h1>
    <p>${message}</p>${link}
  </main>
</body>
</html>
`;
}
