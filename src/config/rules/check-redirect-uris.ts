import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

const lists = ['redirect_uris', 'post_logout_redirect_uris'] as const;

/**
 * Redirect URIs are compared exactly (docs/oidc.md), so each must be an absolute
 * URL; a fragment is never allowed (RFC 6749 §3.1.2).
 */
export const checkRedirectUris: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.clients.forEach((client, clientIndex) => {
    for (const list of lists) {
      client[list].forEach((uri, uriIndex) => {
        const message = describeRedirectUri(uri);
        if (message) problems.push(error(['clients', clientIndex, list, uriIndex], message));
      });
    }
  });
  return problems;
};

function describeRedirectUri(uri: string): string | null {
  if (typeof uri !== 'string') return null;
  if (!URL.canParse(uri)) return 'must be an absolute URL (such as https://app.example.com/callback)';
  if (uri.includes('#')) return 'must not contain a fragment (#…) (RFC 6749 §3.1.2)';
  return null;
}
