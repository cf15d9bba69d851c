import type { Tx } from '../../storage/repositories.js';
import type { ClientRecord, GrantRecord, UserRecord } from '../../model/index.js';
import { hashOpaqueToken, issueAccessToken, issueIdToken, newOpaqueToken } from '../tokens/index.js';
import type { ProviderDeps } from '../provider-deps.js';
import type { IssuedTokens } from './grant.js';

export interface UserTokensInput {
  client: ClientRecord;
  user: UserRecord;
  grant: GrantRecord;
  /** Scopes of the access token (may be narrower than the grant's on refresh, RFC 6749 §6). */
  scopes: string[];
  nonce: string | null;
}

/**
 * The tokens of a user grant (authorization_code and refresh_token): an
 * access token, an ID token when openid was granted, and a new refresh
 * token when offline_access was granted and the client may refresh
 * (OIDC Core §11). The refresh token carries the grant's full scope.
 *
 * The JWTs are signed before the transaction and the transaction only
 * writes: `claim` (the grant's single-use step: inserting the grant of a
 * code, rotating a refresh token) and the new refresh token. A transaction
 * waiting on signatures held SQLite's one connection meanwhile. When
 * `claim` refuses, nothing is stored, the signed tokens are dropped unseen,
 * and the answer is null.
 */
export async function issueUserTokens(input: UserTokensInput, deps: ProviderDeps, claim: (tx: Tx) => Promise<boolean>): Promise<IssuedTokens | null> {
  const { client, user, grant, scopes } = input;
  const access = await issueAccessToken({ sub: user.sub, clientId: client.clientId, scopes, grantId: grant.grantId, authTime: grant.authTime }, deps);
  const issued: IssuedTokens = { accessToken: access.token, expiresIn: access.expiresIn };
  if (scopes.includes('openid')) {
    issued.idToken = await issueIdToken({ user, clientId: client.clientId, alg: client.idTokenSignedResponseAlg, scopes, authTime: grant.authTime, amr: grant.amr, nonce: input.nonce, accessToken: access.token }, deps);
  }
  const refreshes = grant.scopes.includes('offline_access') && client.grantTypes.includes('refresh_token');
  const refreshToken = refreshes ? newOpaqueToken() : null;
  return deps.transaction(async (tx) => {
    if (!(await claim(tx))) return null;
    let expiresAt = access.expiresAt;
    if (refreshToken !== null) {
      const now = deps.clock.now();
      expiresAt = now + deps.tokens.refreshTokenTtlSeconds * 1000;
      await deps.tokenStore.insertRefreshToken(tx, {
        tokenHash: hashOpaqueToken(refreshToken),
        grantId: grant.grantId,
        clientId: client.clientId,
        sub: user.sub,
        scopes: grant.scopes,
        expiresAt,
        rotatedAt: null,
        revokedAt: null,
        createdAt: now,
      });
    }
    await deps.tokenStore.extendGrant(tx, grant.grantId, expiresAt);
    return refreshToken === null ? issued : { ...issued, refreshToken };
  });
}
