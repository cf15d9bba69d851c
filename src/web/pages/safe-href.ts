/**
 * A URL from the config (a logo, a terms link, a link in the signup notice)
 * as an href or src, or null when it is not one a page should follow:
 * only http(s), a same-origin path, mailto: where asked, and for images a
 * data:image/ URI. Never javascript: or another scheme that runs code.
 */
export function safeHref(url: string, options: { allowData?: boolean; allowMailto?: boolean } = {}): string | null {
  const value = url.trim();
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  if (options.allowData && /^data:image\/[a-z0-9.+-]+[;,]/i.test(value)) return value;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href;
  if (options.allowMailto && parsed.protocol === 'mailto:') return parsed.href;
  return null;
}

/**
 * The Content-Security-Policy source a logo needs beyond 'self': its origin
 * when it is on another host, `data:` for an inline image, else nothing.
 */
export function logoSource(logoUrl: string | null, ownOrigin: string): string | null {
  const href = logoUrl === null ? null : safeHref(logoUrl, { allowData: true });
  if (href === null || href.startsWith('/')) return null;
  if (href.startsWith('data:')) return 'data:';
  const origin = new URL(href).origin;
  return origin === ownOrigin ? null : origin;
}
