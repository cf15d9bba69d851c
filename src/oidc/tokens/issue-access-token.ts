import { randomUUID } from 'node:crypto';
import { signJwt } from '../../keys/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { formatScope } from '../scopes.js';
import { groupsClaimName } from '../user-claims.js';

export interface AccessTokenInput {
  /** The user, or the client itself for client_credentials (RFC 9068 §2.2). */
  sub: string;
  clientId: string;
  scopes: string[];
  /** The grant the token belongs to; null for client_credentials. */
  grantId: string | null;
  /** Epoch ms of the user's authentication, when there is a user. */
  authTime: number | null;
  /** The user's groups when `scopes` hold `groups` (../user-claims.ts); null otherwise and for client_credentials. */
  groups: readonly string[] | null;
  /** The user claims the `claims` parameter asked for at userinfo (../claims-request.ts); none for client_credentials. */
  userinfoClaims?: readonly string[];
}

export interface IssuedAccessToken {
  token: string;
  expiresIn: number;
  expiresAt: number;
}

/** The private claim naming the grant, so that revoking a grant revokes its access tokens. */
export const grantIdClaim = 'gid';

/**
 * The private claim listing the user claims userinfo releases beyond the
 * scope's (the grant's `claims` parameter): carried in the signed token so
 * that userinfo reads no grant.
 */
export const userinfoClaimsClaim = 'userinfo_claims';

/**
 * An RFC 9068 JWT access token: header typ `at+jwt` (§2.1), claims iss,
 * exp, aud, sub, client_id, iat, jti (§2.2), scope (§2.2.3, left out
 * when nothing was granted: RFC 6749 §3.3 has no empty scope) and, with
 * the groups scope, groups (§2.2.3.1). The
 * audience is this server: its own bearerAuth API and userinfo are the
 * only resource it serves. Signed with tokens.signing_alg: the ID token
 * defaults of relying parties (RS256) do not concern access tokens, which
 * are opaque to clients (RFC 9068 §6).
 */
export async function issueAccessToken(
  input: AccessTokenInput,
  deps: Pick<ProtocolDeps, 'issuer' | 'tokens' | 'clock' | 'keys' | 'signingPool'>,
): Promise<IssuedAccessToken> {
  const now = Math.floor(deps.clock.now() / 1000);
  const expiresIn = deps.tokens.accessTokenTtlSeconds;
  const claims: Record<string, unknown> = {
    iss: deps.issuer,
    sub: input.sub,
    aud: deps.issuer,
    exp: now + expiresIn,
    iat: now,
    // randomUUID draws from a cached entropy pool: cheaper than randomBytes per token.
    jti: randomUUID(),
    client_id: input.clientId,
  };
  const scope = formatScope(input.scopes);
  if (scope !== undefined) claims.scope = scope;
  if (input.authTime !== null) claims.auth_time = Math.floor(input.authTime / 1000);
  if (input.grantId !== null) claims[grantIdClaim] = input.grantId;
  if (input.groups !== null) claims[groupsClaimName] = input.groups;
  if (input.userinfoClaims !== undefined && input.userinfoClaims.length > 0)
    claims[userinfoClaimsClaim] = input.userinfoClaims;
  return {
    token: await signJwt(deps.signingPool, deps.keys.current(), 'at+jwt', claims),
    expiresIn,
    expiresAt: (now + expiresIn) * 1000,
  };
}
