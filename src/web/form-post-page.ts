import { createHash } from 'node:crypto';
import { contentSecurityPolicy } from './content-security-policy.js';
import { escapeHtml } from './html-variables.js';

/**
 * Submits the form as soon as the parser reaches it. Inline, allowed by its
 * hash: a constant script needs no per-response nonce, and unlike a script
 * file it works whatever the frontend mode (the page is served by
 * /oauth2/authorize, also when /ui/ is proxied or disabled).
 */
const submitScript = 'document.forms[0].submit();';
const submitScriptHash = `'sha256-${createHash('sha256').update(submitScript).digest('base64')}'`;

export interface FormPostPage {
  html: string;
  /** The page's own Content-Security-Policy header value. */
  contentSecurityPolicy: string;
}

/**
 * OAuth 2.0 Form Post Response Mode §2: the authorization response as an
 * HTML form that posts itself to the client's redirect URI. A button stays
 * for browsers that do not run scripts.
 */
export function renderFormPostPage(action: string, params: Readonly<Record<string, string>>): FormPostPage {
  const inputs = Object.entries(params)
    .map(([name, value]) => `    <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const client = sourceOf(action);
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Continue</title>
</head>
<body>
  <form method="post" action="${escapeHtml(action)}">
${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
  <script>${submitScript}</script>
</body>
</html>
`;
  return {
    html,
    // The form goes to the client, and the client may show this page in a
    // frame of its own (a silent renewal with prompt=none): both are allowed
    // for the redirect URI's origin, and nothing else.
    contentSecurityPolicy: contentSecurityPolicy({
      'script-src': submitScriptHash,
      'style-src': "'none'",
      'img-src': "'none'",
      'connect-src': "'none'",
      'form-action': client,
      'frame-ancestors': client,
    }),
  };
}

/**
 * The redirect URI as a CSP source: its origin (a path could hold `;` or
 * `,`, which end a directive or a policy), or for a native app's custom
 * scheme, whose origin is opaque, the scheme itself (`com.example.app:`).
 */
function sourceOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
}
