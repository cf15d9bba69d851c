import type { ForwardAuthAppConfig } from '../config/types.js';
import { isHostName, matchApp } from '../config/forward-auth-hosts.js';

/**
 * return_to is a same-origin relative path (docs/oidc.md): a single
 * leading `/`, not `//` or `/\` (which browsers read as another host), no
 * scheme, no control characters. The one exception is forward
 * authentication (docs/forward-auth.md): an absolute http(s) URL of an app
 * that `forward_auth.apps` declares (`apps`), written plainly — no userinfo,
 * no backslash, no control characters, a host name as the app declares it.
 * Anything else is refused, never followed: this is what keeps /login and
 * /consent from being open redirects.
 */
/** The longest return_to accepted: an authorization request must fit in it to go through the pages. */
export const maxReturnToLength = 8192;

export function isSafeReturnTo(value: unknown, apps: readonly ForwardAuthAppConfig[] = []): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxReturnToLength) return false;
  // URL parsers drop tabs and newlines, so "/\t/evil.example" would become "//evil.example".
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  if (!value.startsWith('/')) return apps.length > 0 && isAppUrl(value, apps);
  if (value.startsWith('//') || value.startsWith('/\\')) return false;
  const base = 'http://return-to.invalid';
  try {
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}

/**
 * The raw text is held to a plain shape before any URL parser reads it, and
 * the parsed host must be the raw one: parsers forgive (`\` as `/`, `@`
 * userinfo, percent-encoded or IDN hosts), and every forgiveness is a way to
 * make the host we check differ from the one a browser visits.
 */
function isAppUrl(value: string, apps: readonly ForwardAuthAppConfig[]): boolean {
  const plain = /^(https?):\/\/([A-Za-z0-9.-]+)(?::(\d{1,5}))?(\/[^\\\s]*)?$/.exec(value);
  if (!plain) return false;
  const host = plain[2].toLowerCase();
  if (!isHostName(host)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hostname !== host || url.username !== '' || url.password !== '') return false;
  return matchApp(apps, host, url.pathname) !== null;
}
