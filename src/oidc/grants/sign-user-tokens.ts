import type { ClientRecord, GrantRecord, UserRecord } from '../../model/index.js';
import { issueAccessToken, issueIdToken } from '../tokens/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import type { IssuedTokens } from './grant.js';

export interface UserTokensInput {
  client: ClientRecord;
  user: UserRecord;
  /** The user's groups when `scopes` or the grant's requested ID token claims hold `groups` (loadGrantUser), else null. */
  groups: readonly string[] | null;
  grant: GrantRecord;
  /** Scopes of the access token (may be narrower than the grant's on refresh, RFC 6749 §6). */
  scopes: string[];
  nonce: string | null;
}

/**
 * The signed tokens of a user grant (authorization_code and refresh_token):
 * an access token, and an ID token when openid was granted. The grant
 * stores what makes them count (its single-use step, a refresh token)
 * itself, never in a transaction that waits on these signatures: that
 * would hold SQLite's one connection meanwhile.
 */
export async function signUserTokens(
  input: UserTokensInput,
  deps: ProtocolDeps,
): Promise<{ issued: IssuedTokens; accessExpiresAt: number }> {
  const { client, user, groups, grant, scopes } = input;
  const access = await issueAccessToken(
    {
      sub: user.sub,
      clientId: client.clientId,
      scopes,
      grantId: grant.grantId,
      authTime: grant.authTime,
      // RFC 9068 §2.2.3.1: the access token's groups follow its scope alone.
      groups: scopes.includes('groups') ? groups : null,
      userinfoClaims: grant.claims?.userinfo ?? [],
    },
    deps,
  );
  const issued: IssuedTokens = { accessToken: access.token, expiresIn: access.expiresIn };
  if (scopes.includes('openid')) {
    issued.idToken = await issueIdToken(
      {
        user,
        groups,
        clientId: client.clientId,
        alg: client.idTokenSignedResponseAlg,
        scopes,
        authTime: grant.authTime,
        amr: grant.amr,
        requestedClaims: grant.claims?.idToken ?? [],
        nonce: input.nonce,
        accessToken: access.token,
        sid: grant.sid,
      },
      deps,
    );
  }
  return { issued, accessExpiresAt: access.expiresAt };
}

/** OIDC Core §11: a refresh token when offline_access was granted and the client may refresh. It carries the grant's full scope. */
export function mayRefresh(grant: GrantRecord, client: ClientRecord): boolean {
  return grant.scopes.includes('offline_access') && client.grantTypes.includes('refresh_token');
}
