import type { IssuedTokens } from '../grants/index.js';
import { formatScope } from '../scopes.js';

/** RFC 6749 §5.1 successful response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Absent when nothing was granted (RFC 6749 §3.3). */
  scope?: string;
  id_token?: string;
  refresh_token?: string;
}

/**
 * The last step, the same for every grant: the tokens and the granted scope
 * on the wire (RFC 6749 §5.1). The scope is always stated, since it may
 * differ from the request's; when nothing was granted there is no scope to
 * state (§3.3 has no empty one) and the member is left out, as §5.1 allows
 * when the grant matches a request that named none.
 */
export function respond(issued: IssuedTokens, scopes: string[]): TokenResponse {
  const response: TokenResponse = {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
  };
  const scope = formatScope(scopes);
  if (scope !== undefined) response.scope = scope;
  if (issued.idToken !== undefined) response.id_token = issued.idToken;
  if (issued.refreshToken !== undefined) response.refresh_token = issued.refreshToken;
  return response;
}
