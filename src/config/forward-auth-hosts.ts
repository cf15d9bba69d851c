import type { ForwardAuthAppConfig } from './types.js';

/**
 * Host names of forward_auth (docs/forward-auth.md), shared by the validate
 * rules, the return_to rule and the forward-auth check: an app's `host` is an
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

/**
 * The app entry that protects a request: among the entries whose host is
 * the request's (an exact host before a wildcard one), the one with the
 * longest path prefix the path is equal to or below (at a `/` boundary, so
 * `/admin` does not cover `/administrator`). `path` is the request's path,
 * without its query; `host` lower-case without port. Null: no app declares
 * the host, or none of its prefixes covers the path.
 */
export function matchApp(
  apps: readonly ForwardAuthAppConfig[],
  host: string,
  path: string,
): ForwardAuthAppConfig | null {
  let best: ForwardAuthAppConfig | null = null;
  let bestRank = -1;
  for (const app of apps) {
    if (!hostMatches(app.host, host) || !underPrefix(path, app.pathPrefix)) continue;
    const rank = app.pathPrefix.length * 2 + (app.host.startsWith('*.') ? 0 : 1);
    if (rank > bestRank) {
      best = app;
      bestRank = rank;
    }
  }
  return best;
}

function underPrefix(path: string, prefix: string): boolean {
  if (prefix === '/') return true;
  return path === prefix || path.startsWith(`${prefix}/`);
}
