import { CookieJar, locationOf } from '../../e2e/support/cookie-jar.js';

/**
 * A browser's walk through an upstream sign-in, over HTTP: idp's authorize
 * route, the upstream (redirects, or Apple's self-posting form), idp's
 * callback. Returns where idp finally sends the browser.
 */
export async function walkUpstream(jar: CookieJar, idpUrl: string, start: string): Promise<URL> {
  let url = new URL(start, idpUrl);
  for (let hops = 0; hops < 20; hops += 1) {
    const response = await jar.fetch(url);
    if (response.status >= 300 && response.status < 400) {
      const next = locationOf(response, url);
      // Back at idp, past the callback: that is the answer under test.
      if (url.origin === idpUrl && url.pathname.endsWith('/callback') && !next.pathname.endsWith('/callback'))
        return next;
      if (url.origin === idpUrl && next.origin === idpUrl && !next.pathname.startsWith('/api/auth/providers/'))
        return next;
      url = next;
      continue;
    }
    const text = await response.text();
    const form = /<form method="post" action="([^"]+)">(.*)<\/form>/s.exec(text);
    if (response.status === 200 && form) {
      const body = new URLSearchParams();
      for (const input of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        body.set(input[1], input[2].replace(/&quot;/g, '"'));
      const posted = await jar.fetch(form[1], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      url = locationOf(posted, form[1]);
      continue;
    }
    throw new Error(`${url.href} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  throw new Error('too many redirects');
}

/** /api/auth/providers/{id}/authorize with its query. */
export function authorizePath(providerId: string, query: Record<string, string> = {}): string {
  return `/api/auth/providers/${providerId}/authorize?${new URLSearchParams(query)}`;
}
