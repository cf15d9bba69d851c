import { OAuthError } from '../errors.js';
import type { WithTarget } from './check-redirect-uri.js';

export interface WithScopes extends WithTarget {
  /** The requested scopes the client may have, in request order. */
  scopes: string[];
}

/**
 * RFC 6749 §3.3: the server may grant less than requested. Scopes the client
 * is not allowed (or that this server does not know) are dropped silently;
 * the token response names what was granted. `openid` is required: this is
 * an OpenID Provider (OIDC Core §3.1.2.1). `offline_access` is kept only for
 * clients that may use refresh tokens.
 */
export function checkScope(state: WithTarget): WithScopes {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const requested = (params.scope ?? '').split(' ').filter((s) => s !== '');
  if (!requested.includes('openid')) throw new OAuthError('invalid_scope', 'The openid scope is required.');
  const { client } = state;
  if (!client.scopes.includes('openid'))
    throw new OAuthError('invalid_scope', 'The client may not request the openid scope.');
  const scopes = [...new Set(requested)].filter(
    (scope) =>
      client.scopes.includes(scope) && (scope !== 'offline_access' || client.grantTypes.includes('refresh_token')),
  );
  return { ...state, scopes };
}
