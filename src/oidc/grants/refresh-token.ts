import { OAuthError } from '../errors.js';
import { hashOpaqueToken } from '../tokens/index.js';
import type { Grant } from './grant.js';
import { issueUserTokens } from './issue-user-tokens.js';
import { loadGrantUser } from './load-grant-user.js';
import { parseScope } from '../scopes.js';

const invalid = (description: string) => new OAuthError('invalid_grant', description);

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use returns a new
 * refresh token and retires the presented one in one conditional update.
 * Presenting a retired token again is a reuse: the whole family (the
 * grant, with its access tokens) is revoked. The scope may only narrow.
 */
export const refreshTokenGrant: Grant = {
  grantType: 'refresh_token',
  parameters: ['refresh_token'],
  async handler({ client, params }, deps) {
    const now = deps.clock.now();
    const tokenHash = hashOpaqueToken(params.refresh_token ?? '');
    const record = await deps.tokenStore.findRefreshToken(deps.db, tokenHash);
    if (!record || record.clientId !== client.clientId) throw invalid('The refresh token is invalid.');
    if (record.revokedAt !== null) throw invalid('The refresh token has been revoked.');
    if (record.expiresAt <= now) throw invalid('The refresh token has expired.');
    if (!record.scopes.includes('offline_access')) throw invalid('The grant does not include offline_access.');
    const grant = await deps.tokenStore.findGrant(deps.db, record.grantId);
    if (!grant || grant.revokedAt !== null) throw invalid('The grant has been revoked.');
    const requested = params.scope === undefined ? record.scopes : parseScope(params.scope);
    const wider = requested.filter((s) => !record.scopes.includes(s));
    if (wider.length > 0) throw new OAuthError('invalid_scope', `The scope may only be narrowed; not granted: ${wider.join(' ')}.`);
    const user = await loadGrantUser(record.sub, deps);
    const issued = await issueUserTokens({ client, user, grant, scopes: requested, nonce: null }, deps, (tx) =>
      deps.tokenStore.rotateRefreshToken(tx, tokenHash, now),
    );
    if (issued) return issued;
    // Rotated already: someone holds a stolen copy. Revoke the family.
    await deps.tokenStore.revokeGrant(deps.db, record.grantId, now);
    throw invalid('The refresh token has already been used; the grant has been revoked.');
  },
};
