import { OAuthError } from '../errors.js';
import type { WithClient } from './load-client.js';
import { matchesRedirectUri } from './match-redirect-uri.js';
import type { RedirectTarget } from './types.js';

export interface WithTarget extends WithClient {
  target: RedirectTarget;
}

/**
 * Exact string matching against the registered URIs (RFC 9700 §4.1.3,
 * OIDC Core §3.1.2.1: redirect_uri is required), loopback URIs on any port
 * (RFC 8252 §7.3, ./match-redirect-uri.ts). From here on errors go to the
 * client; before, they are shown as a page.
 */
export function checkRedirectUri(state: WithClient): WithTarget {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined) throw new OAuthError('invalid_request', 'The redirect_uri parameter is missing.');
  if (!matchesRedirectUri(state.client.redirectUris, redirectUri)) {
    throw new OAuthError('invalid_request', 'The redirect_uri is not registered for this client.');
  }
  const responseMode = state.params.response_mode === 'form_post' ? 'form_post' : 'query';
  return { ...state, target: { redirectUri, responseMode, state: params.state ?? null } };
}
