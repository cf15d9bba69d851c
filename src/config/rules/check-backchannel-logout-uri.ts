import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/** Hosts that never leave the machine: plain http is allowed to them (a relying party in development). */
const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * OpenID Back-Channel Logout 1.0 §2.2: the back-channel logout URI is an
 * absolute URL without a fragment. idp POSTs Logout Tokens to it, so it
 * must be https, or http on a loopback host only: a token sent in clear
 * over a network could be read and replayed at the client within its two
 * minutes.
 */
export const checkBackchannelLogoutUri: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.clients.forEach((client, clientIndex) => {
    const uri = client.backchannel_logout_uri;
    if (typeof uri !== 'string') return;
    const message = describeBackchannelLogoutUri(uri);
    if (message) problems.push(error(['clients', clientIndex, 'backchannel_logout_uri'], message));
  });
  return problems;
};

function describeBackchannelLogoutUri(uri: string): string | null {
  const url = URL.canParse(uri) ? new URL(uri) : null;
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return 'must be an absolute https URL (such as https://app.example.com/backchannel-logout)';
  if (uri.includes('#')) return 'must not contain a fragment (#…) (OpenID Back-Channel Logout 1.0 §2.2)';
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname))
    return 'must use https (http only on a loopback host: 127.0.0.1, [::1] or localhost)';
  return null;
}
