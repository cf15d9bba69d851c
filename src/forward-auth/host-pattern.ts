/**
 * Host names of forward_auth (docs/forward-auth.md): an app's `host` is an
 * exact name or `*.` and a name, where `*` stands for exactly one label.
 * Everything here compares lower-case names without a port: the callers
 * lower-case what they read from a request first.
 */

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const hostName = new RegExp(`^${label}(?:\\.${label})*$`);
const wildcardPattern = new RegExp(`^\\*\\.${label}(?:\\.${label})+$`);

/** A host name a request may carry: letters, digits and hyphens in dot-separated labels, 253 characters at most. */
export function isHostName(value: string): boolean {
  return value.length <= 253 && hostName.test(value);
}

/**
 * A valid `host` of an app: an exact host name, or a wildcard over at least
 * two labels (`*.example.com`; `*.com` would claim a whole top-level domain).
 */
export function isHostPattern(value: string): boolean {
  const lower = value.toLowerCase();
  return lower.startsWith('*.') ? lower.length <= 253 && wildcardPattern.test(lower) : isHostName(lower);
}

/** Whether `host` is the one `pattern` names (exact), or one label below its wildcard's domain. */
export function hostMatches(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return pattern === host;
  const suffix = pattern.slice(1);
  if (!host.endsWith(suffix)) return false;
  const first = host.slice(0, host.length - suffix.length);
  return first.length > 0 && !first.includes('.');
}

/** Whether a cookie with `Domain=domain` is sent to `host` (RFC 6265 §5.1.3 domain-match, for names). */
export function domainCovers(domain: string, host: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** What a pattern's hosts all end with, for the cookie_domain rule: the pattern itself, or its wildcard's domain. */
export function patternDomain(pattern: string): string {
  return pattern.startsWith('*.') ? pattern.slice(2) : pattern;
}
