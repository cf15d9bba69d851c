/**
 * The UserInfo endpoint (OIDC Core §5.3): a bearer access token with the
 * openid scope, the user's claims by scope and those the `claims` parameter
 * asked for here (§5.5), which the token lists itself. Errors are RFC 6750
 * §3 challenges (invalid_token 401, insufficient_scope 403).
 */
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { invalidToken, userinfoClaimsClaim, verifyAccessToken } from '../tokens/index.js';
import { readClaimGroups, userClaims } from '../user-claims.js';

/** RFC 6750 §3.1: no token at all gets the bare challenge, without an error code. */
export function missingBearerToken(realm: string): OAuthError {
  const error = new OAuthError('invalid_token', 'An access token is required.');
  error.headers['www-authenticate'] = `Bearer realm="${realm}"`;
  return error;
}

export async function userinfo(token: string, deps: ProtocolDeps): Promise<Record<string, unknown>> {
  const claims = await verifyAccessToken(token, deps);
  if (!claims.scopes.includes('openid')) {
    const error = new OAuthError('insufficient_scope', 'The access token lacks the openid scope.');
    error.headers['www-authenticate'] = 'Bearer error="insufficient_scope", scope="openid"';
    throw error;
  }
  // Client credentials tokens have no user (their sub is the client).
  if (claims.grantId === null) throw invalidToken('The access token does not belong to a user.');
  const requested = requestedHere(claims.claims[userinfoClaimsClaim]);
  // Side by side, the two reads share one read of the cache generation (batched per turn).
  const [user, groups] = await Promise.all([
    deps.cachedReads.findUser(claims.sub),
    readClaimGroups(deps.cachedReads, claims.sub, claims.scopes, undefined, requested),
  ]);
  if (!user || user.deletedAt !== null) throw invalidToken('The user no longer exists.');
  return { sub: user.sub, ...userClaims(user, claims.scopes, groups, requested) };
}

/** The token's list of requested userinfo claims; this server signed it, so a list of names or nothing. */
function requestedHere(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}
