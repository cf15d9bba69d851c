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

/** What the grant must store for the tokens to count: its single-use step, the new refresh token (when there is one) and the grant's expiry. */
export interface TokensToStore {
  refreshTokenHash: string | null;
  accessExpiresAt: number;
}

/**
 * The tokens of a user grant (authorization_code and refresh_token): an
 * access token, an ID token when openid was granted, and a new refresh
 * token when offline_access was granted and the client may refresh
 * (OIDC Core §11). The refresh token carries the grant's full scope.
 *
 * The JWTs are signed before anything is written, and `store` only writes
 * (the grant's single-use step: inserting the grant of a code, rotating a
 * refresh token; then the new refresh token): a transaction waiting on
 * signatures would hold SQLite's one connection meanwhile. When `store`
 * refuses, nothing is stored, the signed tokens are dropped unseen, and the
 * answer is null.
 */
export async function issueUserTokens(input: UserTokensInput, deps: ProviderDeps, store: (tokens: TokensToStore) => Promise<boolean>): Promise<IssuedTokens | null> {
  const { client, user, grant, scopes } = input;
  const access = await issueAccessToken({ sub: user.sub, clientId: client.clientId, scopes, grantId: grant.grantId, authTime: grant.authTime }, deps);
  const issued: IssuedTokens = { accessToken: access.token, expiresIn: access.expiresIn };
  if (scopes.includes('openid')) {
    issued.idToken = await issueIdToken({ user, clientId: client.clientId, alg: client.idTokenSignedResponseAlg, scopes, authTime: grant.authTime, amr: grant.amr, nonce: input.nonce, accessToken: access.token }, deps);
  }
  const refreshes = grant.scopes.includes('offline_access') && client.grantTypes.includes('refresh_token');
  const refreshToken = refreshes ? newOpaqueToken() : null;
  const stored = await store({ refreshTokenHash: refreshToken === null ? null : hashOpaqueToken(refreshToken), accessExpiresAt: access.expiresAt });
  if (!stored) return null;
  return refreshToken === null ? issued : { ...issued, refreshToken };
}
