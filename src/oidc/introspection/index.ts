/**
 * Token introspection (RFC 7662) for authenticated confidential clients:
 * an access token is described to any of them (they act as resource
 * servers); a refresh token only to the client that holds it. Anything
 * else is `{ active: false }` (§2.2), never an error.
 */
import type { PresentedCredentials } from '../../clients/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { formatScope } from '../scopes.js';
import { checkAccessTokenLive, hashOpaqueToken, verifyAccessTokenJwt } from '../tokens/index.js';

export interface IntrospectionRequest {
  token: string;
  credentials: PresentedCredentials;
}

const inactive = { active: false } as const;

/** RFC 7662 §2.2: scope is optional; an empty grant has none to state (RFC 6749 §3.3 has no empty scope). */
function withScope(response: Record<string, unknown>, scopes: string[]): Record<string, unknown> {
  const scope = formatScope(scopes);
  if (scope !== undefined) response.scope = scope;
  return response;
}

export async function introspectToken(
  request: IntrospectionRequest,
  deps: ProtocolDeps,
): Promise<Record<string, unknown>> {
  const client = await authenticateClient(request.credentials, deps);
  if (client.tokenEndpointAuthMethod === 'none')
    throw new OAuthError('unauthorized_client', 'A public client cannot introspect tokens.');
  // A refresh token is opaque base64url (no dot); an access token is a JWS: each is looked for only where it can be.
  if (!request.token.includes('.')) {
    const now = deps.clock.now();
    const stored = await deps.refreshTokens.find(hashOpaqueToken(request.token));
    if (!stored) return inactive;
    const { token: refresh, grant } = stored;
    if (
      refresh.clientId !== client.clientId ||
      refresh.revokedAt !== null ||
      refresh.rotatedAt !== null ||
      refresh.expiresAt <= now
    )
      return inactive;
    if (!grant || grant.revokedAt !== null) return inactive;
    const response = {
      active: true,
      token_type: 'refresh_token',
      client_id: refresh.clientId,
      sub: refresh.sub,
      iss: deps.issuer,
      exp: Math.floor(refresh.expiresAt / 1000),
      iat: Math.floor(refresh.createdAt / 1000),
    };
    return withScope(response, refresh.scopes);
  }
  try {
    const claims = await verifyAccessTokenJwt(request.token, deps);
    if (!(await checkAccessTokenLive(claims, deps))) return inactive;
    const { iss, aud } = claims.claims;
    const response = {
      active: true,
      token_type: 'Bearer',
      client_id: claims.clientId,
      sub: claims.sub,
      iss,
      aud,
      exp: claims.exp,
      iat: claims.iat,
      jti: claims.jti,
    };
    return withScope(response, claims.scopes);
  } catch (error) {
    if (error instanceof OAuthError) return inactive;
    throw error;
  }
}
