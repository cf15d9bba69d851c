import type { GrantRecord, RefreshTokenRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import { hashOpaqueToken } from '../tokens/index.js';
import type { Checked, Grant } from './grant.js';
import { missingParameters, type RefreshTokenRequest } from './grant-request.js';
import { issueUserTokens } from './issue-user-tokens.js';
import { loadGrantUser } from './load-grant-user.js';

const invalid = (description: string) => new OAuthError('invalid_grant', description);

interface CheckedRefreshToken extends Checked {
  tokenHash: string;
  record: RefreshTokenRecord;
  grant: GrantRecord;
}

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use returns a new
 * refresh token and retires the presented one in one conditional update.
 * Presenting a retired token again is a reuse: the whole family (the
 * grant, with its access tokens) is revoked. The scope may only narrow:
 * the token's scopes are all the request may have.
 *
 * The lookup and the rotation go through deps.refreshTokens, which groups
 * those of one event-loop turn into one query and one transaction (issue
 * #16); the conditional update keeps each token single use all the same.
 */
export const refreshTokenGrant: Grant<RefreshTokenRequest, CheckedRefreshToken> = {
  grantType: 'refresh_token',
  read(form) {
    const { refresh_token: refreshToken } = form;
    if (!refreshToken) return missingParameters({ refresh_token: refreshToken });
    return { grantType: 'refresh_token', refreshToken, scope: form.scope };
  },
  async check(request, client, deps) {
    const now = deps.clock.now();
    const tokenHash = hashOpaqueToken(request.refreshToken);
    const stored = await deps.refreshTokens.find(tokenHash);
    const record = stored?.token;
    if (!record || record.clientId !== client.clientId) throw invalid('The refresh token is invalid.');
    if (record.revokedAt !== null) throw invalid('The refresh token has been revoked.');
    if (record.expiresAt <= now) throw invalid('The refresh token has expired.');
    if (!record.scopes.includes('offline_access')) throw invalid('The grant does not include offline_access.');
    const grant = stored.grant;
    if (!grant || grant.revokedAt !== null) throw invalid('The grant has been revoked.');
    return { allowedScopes: record.scopes, tokenHash, record, grant };
  },
  scopeRefusal: 'The scope may only be narrowed; not granted: ',
  async issue({ tokenHash, record, grant }, scopes, client, deps) {
    const user = await loadGrantUser(record.sub, deps);
    const issued = await issueUserTokens({ client, user, grant, scopes, nonce: null }, deps, ({ refreshTokenHash, accessExpiresAt }) =>
      deps.refreshTokens.rotate({
        tokenHash,
        grantId: grant.grantId,
        successor: refreshTokenHash === null ? null : { tokenHash: refreshTokenHash, clientId: client.clientId, sub: user.sub, scopes: grant.scopes },
        accessExpiresAt,
      }),
    );
    if (issued) return issued;
    // Rotated already: someone holds a stolen copy. Revoke the family.
    await deps.tokenStore.revokeGrant(deps.db, record.grantId, deps.clock.now());
    throw invalid('The refresh token has already been used; the grant has been revoked.');
  },
};
