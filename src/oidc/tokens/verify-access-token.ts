import { JwsError, verifyJws } from '../../keys/index.js';
import { OAuthError } from '../errors.js';
import type { ProviderDeps } from '../provider-deps.js';
import { grantIdClaim } from './issue-access-token.js';

export interface AccessTokenClaims {
  sub: string;
  clientId: string;
  scopes: string[];
  jti: string;
  exp: number;
  iat: number;
  grantId: string | null;
  claims: Record<string, unknown>;
}

/** RFC 6750 §3.1: a bad token is 401 invalid_token with the Bearer challenge. */
export function invalidToken(description: string): OAuthError {
  const error = new OAuthError('invalid_token', description);
  error.headers['www-authenticate'] = `Bearer error="invalid_token", error_description="${description.replace(/["\\]/g, '')}"`;
  return error;
}

/** Signature, typ, iss and shape only; expiry and revocation are checkAccessTokenLive's. */
export async function decodeAccessToken(token: string, deps: Pick<ProviderDeps, 'issuer' | 'keys'>): Promise<AccessTokenClaims> {
  let verified;
  try {
    verified = await verifyJws(token, (kid) => deps.keys.findKey(kid));
  } catch (error) {
    if (error instanceof JwsError) throw invalidToken(`The access token is invalid: ${error.message}.`);
    throw error;
  }
  const { header, payload } = verified;
  // RFC 9068 §4: the typ must be at+jwt (application/at+jwt is the same media type).
  const typ = String(header.typ ?? '').toLowerCase();
  if (typ !== 'at+jwt' && typ !== 'application/at+jwt') throw invalidToken('The token is not an access token.');
  if (payload.iss !== deps.issuer) throw invalidToken('The access token was issued by another issuer.');
  const { sub, client_id: clientId, jti, exp, iat, scope } = payload;
  if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
    throw invalidToken('The access token lacks required claims.');
  }
  const grantId = typeof payload[grantIdClaim] === 'string' ? (payload[grantIdClaim] as string) : null;
  const scopes = typeof scope === 'string' && scope !== '' ? scope.split(' ') : [];
  return { sub, clientId, scopes, jti, exp, iat, grantId, claims: payload };
}

/** Not expired, not revoked (itself or its grant), client still registered. */
export async function checkAccessTokenLive(claims: AccessTokenClaims, deps: ProviderDeps): Promise<boolean> {
  if (claims.exp * 1000 <= deps.clock.now()) return false;
  if (!(await deps.clients.find(claims.clientId))) return false;
  return deps.tokenStore.isAccessTokenLive(deps.db, claims.jti, claims.grantId);
}

/**
 * bearerAuth (SPEC.md 5): a JWT access token signed by one of our published
 * keys (unknown kid, alg none, wrong typ rejected), unexpired and not revoked.
 */
export async function verifyAccessToken(token: string, deps: ProviderDeps): Promise<AccessTokenClaims> {
  const claims = await decodeAccessToken(token, deps);
  if (claims.exp * 1000 <= deps.clock.now()) throw invalidToken('The access token has expired.');
  if (!(await checkAccessTokenLive(claims, deps))) throw invalidToken('The access token has been revoked.');
  return claims;
}
