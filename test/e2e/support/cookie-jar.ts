/**
 * A browser's cookie handling, just enough for tests driving the server with
 * fetch: remembers Set-Cookie values per name (one origin, path /), sends
 * them back, and follows nothing on its own, so each redirect can be checked.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  /** fetch with this jar's cookies and no automatic redirects. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }
}

/** The Location of a 302/303, resolved against the request URL. */
export function locationOf(response: Response, base: string | URL): URL {
  const location = response.headers.get('location');
  if (!location || response.status < 300 || response.status > 399) {
    throw new Error(`expected a redirect, got ${response.status} ${location ?? ''}`);
  }
  return new URL(location, base);
}
