/**
 * A loopback redirect URI as RFC 8252 §7.3 writes it: http, the literal
 * address 127.0.0.1 or [::1], an optional port, then the rest (path and
 * query) kept as written. `localhost` is not one (§8.3: it may resolve
 * elsewhere), and neither is https.
 */
const loopback = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?].*)?$/;

function splitLoopback(uri: string): { host: string; rest: string } | null {
  const match = loopback.exec(uri);
  if (!match) return null;
  // Optional groups that did not take part are undefined.
  const [, host, port, rest] = match as unknown as [string, string, string | undefined, string | undefined];
  if (port !== undefined && (!/^[1-9]/.test(port) || Number(port) > 65535)) return null;
  return { host, rest: rest ?? '' };
}

/**
 * Exact string matching (RFC 9700 §4.1.3), with the one exception of RFC
 * 8252 §7.3: a native app listens on whatever port the system gives it, so
 * a registered loopback URI matches the same host, path and query on any
 * port. Nothing else is relaxed: the path and query compare as strings.
 */
export function matchesRedirectUri(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const asked = splitLoopback(presented);
  if (!asked) return false;
  return registered.some((uri) => {
    const allowed = splitLoopback(uri);
    return allowed !== null && allowed.host === asked.host && allowed.rest === asked.rest;
  });
}
