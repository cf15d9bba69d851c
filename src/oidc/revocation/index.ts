/**
 * Token revocation (RFC 7009): the client authenticates, then a refresh
 * token of its own revokes its whole grant (§2.1: the access tokens of
 * the grant go too), and an access token of its own is revoked by jti
 * until it expires. Unknown, invalid or foreign tokens answer 200 as
 * well (§2.2): the caller learns nothing about tokens it does not hold.
 */
import type { PresentedCredentials } from '../../clients/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { hashOpaqueToken, verifyAccessTokenJwt } from '../tokens/index.js';

export interface RevocationRequest {
  token: string;
  tokenTypeHint: string | undefined;
  credentials: PresentedCredentials;
}

export async function revokeToken(request: RevocationRequest, deps: ProtocolDeps): Promise<void> {
  const client = await authenticateClient(request.credentials, deps);
  const now = deps.clock.now();
  const refresh = await deps.tokenStore.findRefreshToken(deps.db, hashOpaqueToken(request.token));
  if (refresh) {
    if (refresh.clientId === client.clientId) await deps.tokenStore.revokeGrant(deps.db, refresh.grantId, now);
    return;
  }
  try {
    const claims = await verifyAccessTokenJwt(request.token, deps);
    if (claims.clientId === client.clientId)
      await deps.tokenStore.revokeAccessToken(deps.db, claims.jti, claims.exp * 1000);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
  }
}
