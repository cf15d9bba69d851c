import { defaultBaseUrl } from '../normalize-config.js';
import { domainCovers, isHostName, isHostPattern, patternDomain } from '../forward-auth-hosts.js';
import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * forward_auth (docs/forward-auth.md): app hosts a request can match, one
 * entry per host and path prefix (two would make the answer depend on their
 * order), path prefixes a browser cannot read two ways, and a cookie_domain
 * that covers idp itself (else browsers refuse the cookie, and nobody signs
 * in) and every app (else its requests never carry the session).
 */
export const checkForwardAuth: ConfigRule = (config) => {
  const { apps, cookie_domain: cookieDomain } = config.forward_auth;
  const problems: RuleProblem[] = [];
  const seen = new Map<string, number>();
  apps.forEach((app, a) => {
    if (!isHostPattern(app.host)) {
      problems.push(
        error(
          ['forward_auth', 'apps', a, 'host'],
          `${JSON.stringify(app.host)} is not a host name or *.domain (one wildcard label, no port, no scheme), such as grafana.example.com or *.example.com`,
        ),
      );
    }
    if (!isPathPrefix(app.path_prefix)) {
      problems.push(
        error(
          ['forward_auth', 'apps', a, 'path_prefix'],
          `${JSON.stringify(app.path_prefix)} is not a plain path: no //, . or .. segments, ?, #, % or white space`,
        ),
      );
    }
    const key = `${app.host.toLowerCase()} ${app.path_prefix.replace(/\/+$/, '') || '/'}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, a);
    else
      problems.push(
        error(
          ['forward_auth', 'apps', a],
          `protects the same host and path prefix as forward_auth.apps[${first}]: keep one entry for ${app.host}${app.path_prefix}`,
        ),
      );
  });
  if (cookieDomain !== undefined) problems.push(...checkCookieDomain(config, cookieDomain));
  return problems;
};

function checkCookieDomain(config: Parameters<ConfigRule>[0], value: string): RuleProblem[] {
  const domain = value.toLowerCase().replace(/^\./, '');
  const path = ['forward_auth', 'cookie_domain'];
  if (!isHostName(domain) || !domain.includes('.') || /^[0-9.]+$/.test(domain))
    return [error(path, `${JSON.stringify(value)} is not a domain name with a dot, such as example.com`)];
  const problems: RuleProblem[] = [];
  const baseHost = hostOf(config.server.base_url ?? defaultBaseUrl(config.server.host, config.server.port));
  if (baseHost !== null && !domainCovers(domain, baseHost))
    problems.push(
      error(path, `does not cover server.base_url's host ${baseHost}: browsers would refuse the session cookie`),
    );
  config.forward_auth.apps.forEach((app, a) => {
    const host = app.host.toLowerCase();
    if (isHostPattern(host) && !domainCovers(domain, patternDomain(host)))
      problems.push(
        error(
          path,
          `does not cover forward_auth.apps[${a}].host ${app.host}: its requests would never carry the session`,
        ),
      );
  });
  return problems;
}

function isPathPrefix(value: string): boolean {
  if (!value.startsWith('/') || /[?#%\s\\]/.test(value) || /[\u0000-\u001f\u007f]/.test(value)) return false;
  const segments = value.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  return segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}
