import { logoHref } from '../../config/index.js';

/**
 * A URL from the config (a terms link, a link in the signup notice) as an
 * href, or null when it is not one a page should follow: only http(s), a
 * same-origin path, and mailto: where asked. Never javascript: or another
 * scheme that runs code.
 */
export function safeHref(url: string, options: { allowMailto?: boolean } = {}): string | null {
  const value = url.trim();
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
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
  const href = logoUrl === null ? null : logoHref(logoUrl);
  if (href === null || href.startsWith('/')) return null;
  if (href.startsWith('data:')) return 'data:';
  const origin = new URL(href).origin;
  return origin === ownOrigin ? null : origin;
}
