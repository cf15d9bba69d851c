import { OAuthError } from '../errors.js';
import type { WithTarget } from './check-redirect-uri.js';

export interface WithScopes extends WithTarget {
  /** The requested scopes the client may have, in request order. */
  scopes: string[];
}

/** RFC 6749 §3.3 at the authorization endpoint (requestedScopes says how). */
export function checkScope(state: WithTarget): WithScopes {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  return { ...state, scopes: requestedScopes(params.scope, state.client) };
}

/**
 * RFC 6749 §3.3: the server may grant less than requested. Scopes the client
 * is not allowed (or that this server does not know) are dropped silently;
 * the token response names what was granted. `openid` is required: this is
 * an OpenID Provider (OIDC Core §3.1.2.1). `offline_access` is kept only for
 * clients that may use refresh tokens. The device authorization endpoint
 * (../device) checks its `scope` the same way.
 */
export function requestedScopes(
  scope: string | undefined,
  client: { scopes: readonly string[]; grantTypes: readonly string[] },
): string[] {
  const requested = (scope ?? '').split(' ').filter((s) => s !== '');
  if (!requested.includes('openid')) throw new OAuthError('invalid_scope', 'The openid scope is required.');
  if (!client.scopes.includes('openid'))
    throw new OAuthError('invalid_scope', 'The client may not request the openid scope.');
  return [...new Set(requested)].filter(
    (s) => client.scopes.includes(s) && (s !== 'offline_access' || client.grantTypes.includes('refresh_token')),
  );
}
