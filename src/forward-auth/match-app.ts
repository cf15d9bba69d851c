import type { ForwardAuthAppConfig } from '../config/types.js';
import { hostMatches } from './host-pattern.js';

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
