import type { ClientRecord, GrantRecord } from '../../model/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { hashOpaqueToken, newOpaqueToken } from '../tokens/index.js';
import type { IssuedTokens } from './grant.js';
import { mayRefresh } from './sign-user-tokens.js';

/**
 * Stores the grant of a single-use authorization (an authorization code, a
 * device code) and, when it may refresh, a new refresh token under it, in
 * one transaction: the tokens, signed before it, count only then. Null when
 * the grant's id was stored already (the authorization was used twice):
 * the signed tokens are dropped unseen.
 */
export async function storeUserGrant(
  grant: GrantRecord,
  client: ClientRecord,
  signed: { issued: IssuedTokens; accessExpiresAt: number },
  deps: ProtocolDeps,
): Promise<IssuedTokens | null> {
  const refreshToken = mayRefresh(grant, client) ? newOpaqueToken() : null;
  const stored = await deps.transaction(async (tx) => {
    if (!(await deps.tokenStore.insertGrant(tx, grant))) return false;
    let expiresAt = signed.accessExpiresAt;
    if (refreshToken !== null) {
      const now = deps.clock.now();
      expiresAt = now + deps.tokens.refreshTokenTtlSeconds * 1000;
      const owner = { grantId: grant.grantId, clientId: client.clientId, sub: grant.sub, scopes: grant.scopes };
      await deps.tokenStore.insertRefreshToken(tx, {
        ...owner,
        tokenHash: hashOpaqueToken(refreshToken),
        expiresAt,
        rotatedAt: null,
        revokedAt: null,
        createdAt: now,
      });
    }
    await deps.tokenStore.extendGrant(tx, grant.grantId, expiresAt);
    return true;
  });
  if (!stored) return null;
  return refreshToken === null ? signed.issued : { ...signed.issued, refreshToken };
}
