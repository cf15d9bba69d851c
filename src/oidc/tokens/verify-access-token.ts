import { JwtError, verifyJwt } from '../../keys/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
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

/**
 * Leeway on `exp` and `nbf`, in seconds. The tokens are issued and checked
 * by the instances of one deployment, whose clocks are NTP-synchronised
 * (docs/oidc.md): one second covers the skew between them and the
 * truncation of NumericDate to whole seconds, and no token lives more than
 * a second past its `exp`.
 */
export const accessTokenClockToleranceSeconds = 1;

/** RFC 9068 §2.2: the claims every access token has (iss and aud are required by the checks themselves). */
const requiredClaims = ['exp', 'iat', 'jti', 'sub', 'client_id'];

/** RFC 6750 §3.1: a bad token is 401 invalid_token with the Bearer challenge. */
export function invalidToken(description: string): OAuthError {
  const error = new OAuthError('invalid_token', description);
  error.headers['www-authenticate'] =
    `Bearer error="invalid_token", error_description="${description.replace(/["\\]/g, '')}"`;
  return error;
}

/**
 * RFC 9068 §4, everything the token itself can tell: signed by one of our
 * published keys with an allowed algorithm, `typ` at+jwt, `iss` ours, `aud`
 * this server (its userinfo and bearerAuth API are the only resource),
 * `nbf` and `exp` within accessTokenClockToleranceSeconds. Whether it is
 * still live is checkAccessTokenLive's question.
 */
export async function verifyAccessTokenJwt(
  token: string,
  deps: Pick<ProtocolDeps, 'issuer' | 'keys' | 'clock' | 'verifiedTokens'>,
): Promise<AccessTokenClaims> {
  const cached = deps.verifiedTokens.get(token, deps.clock.now() / 1000);
  if (cached) return cached;
  const claims = await verifySignedAccessToken(token, deps);
  deps.verifiedTokens.set(token, claims);
  return claims;
}

async function verifySignedAccessToken(
  token: string,
  deps: Pick<ProtocolDeps, 'issuer' | 'keys' | 'clock'>,
): Promise<AccessTokenClaims> {
  let payload;
  try {
    ({ payload } = await verifyJwt(token, deps.keys, {
      typ: 'at+jwt',
      issuer: deps.issuer,
      audience: deps.issuer,
      requiredClaims,
      now: deps.clock.now(),
      clockToleranceSeconds: accessTokenClockToleranceSeconds,
    }));
  } catch (error) {
    if (error instanceof JwtError) throw invalidToken(`The access token is invalid: ${error.message}.`);
    throw error;
  }
  const { sub, client_id: clientId, jti, exp, iat, scope } = payload;
  if (
    typeof sub !== 'string' ||
    typeof clientId !== 'string' ||
    typeof jti !== 'string' ||
    typeof exp !== 'number' ||
    typeof iat !== 'number'
  ) {
    throw invalidToken('The access token lacks required claims.');
  }
  const grantId = typeof payload[grantIdClaim] === 'string' ? payload[grantIdClaim] : null;
  const scopes = typeof scope === 'string' && scope !== '' ? scope.split(' ') : [];
  return { sub, clientId, scopes, jti, exp, iat, grantId, claims: payload };
}

/**
 * The client still registered, the token not revoked, and its grant live
 * and held by the token's own user and client (one query, or none while
 * the cache generation stands still: deps.cachedReads); a token without a
 * grant is the client's own (client_credentials, RFC 9068 §2.2: its sub is
 * the client).
 */
export async function checkAccessTokenLive(claims: AccessTokenClaims, deps: ProtocolDeps): Promise<boolean> {
  if (claims.grantId === null && claims.sub !== claims.clientId) return false;
  if (!(await deps.clients.find(claims.clientId))) return false;
  const grant =
    claims.grantId === null ? null : { grantId: claims.grantId, sub: claims.sub, clientId: claims.clientId };
  return deps.cachedReads.isAccessTokenLive(claims.jti, grant);
}

/** bearerAuth (docs/http-api.md, "Conventions") and userinfo: a verified access token that is still live. */
export async function verifyAccessToken(token: string, deps: ProtocolDeps): Promise<AccessTokenClaims> {
  const claims = await verifyAccessTokenJwt(token, deps);
  if (!(await checkAccessTokenLive(claims, deps)))
    throw invalidToken('The access token has been revoked, or does not match its grant.');
  return claims;
}
