import type { IssuedTokens } from '../grants/index.js';

/** RFC 6749 §5.1 successful response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/** The last step, the same for every grant: the tokens and the granted scope on the wire (RFC 6749 §5.1). */
export function respond(issued: IssuedTokens, scopes: string[]): TokenResponse {
  const response: TokenResponse = { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, scope: scopes.join(' ') };
  if (issued.idToken !== undefined) response.id_token = issued.idToken;
  if (issued.refreshToken !== undefined) response.refresh_token = issued.refreshToken;
  return response;
}
