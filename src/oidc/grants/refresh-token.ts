import type { ClientRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { hashOpaqueToken, type ClaimedRefreshToken, type StoredRefreshToken } from '../tokens/index.js';
import type { Checked, Grant } from './grant.js';
import { missingParameters, type RefreshTokenRequest } from './grant-request.js';
import { signUserTokens } from './sign-user-tokens.js';
import { loadGrantUser } from './load-grant-user.js';
import { recheckAccess } from './recheck-access.js';

const invalid = (description: string) => new OAuthError('invalid_grant', description);

interface CheckedRefreshToken extends Checked {
  tokenHash: string;
  /** Claimed in check when the request narrows no scope; otherwise in issue, once the scope step passed. */
  claimed: ClaimedRefreshToken | null;
}

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): every use returns a new
 * refresh token and retires the presented one in one conditional update.
 * Presenting a retired token again is a reuse: the whole family (the
 * grant, with its access tokens) is revoked. The scope may only narrow:
 * the token's scopes are all the request may have.
 *
 * The claim comes first (issue #16): one conditional update, grouped with
 * the other refreshes of the event-loop turn (deps.refreshTokens), retires
 * the token, stores its successor and reads the token, its grant and the
 * cache generation (so the user comes from the cache), so a refresh costs
 * its share of one statement. The user must still pass the client's
 * access rule (./recheck-access.ts). Only a refused claim
 * reads the token again, to say why. A request with a scope parameter
 * reads first, so that an invalid_scope answer leaves the token usable.
 */
export const refreshTokenGrant: Grant<RefreshTokenRequest, CheckedRefreshToken> = {
  grantType: 'refresh_token',
  read(form) {
    const { refresh_token: refreshToken } = form;
    if (!refreshToken) return missingParameters({ refresh_token: refreshToken });
    return { grantType: 'refresh_token', refreshToken, scope: form.scope };
  },
  async check(request, client, deps) {
    const tokenHash = hashOpaqueToken(request.refreshToken);
    if (request.scope === undefined) {
      const claimed = await claim(tokenHash, client, deps);
      return { allowedScopes: claimed.token.scopes, tokenHash, claimed };
    }
    const stored = await deps.refreshTokens.find(tokenHash);
    if (!stored) throw invalid('The refresh token is invalid.');
    const refusal = whyRefused(stored, client, deps.clock.now());
    if (refusal) throw refusal;
    return { allowedScopes: stored.token.scopes, tokenHash, claimed: null };
  },
  scopeRefusal: 'The scope may only be narrowed; not granted: ',
  async issue({ tokenHash, claimed }, scopes, client, deps) {
    const { token, grant, successor, cacheGeneration } = claimed ?? (await claim(tokenHash, client, deps));
    const { user, groups } = await loadGrantUser(token.sub, scopes, deps, cacheGeneration, grant.claims?.idToken);
    if (client.access !== null) await recheckAccess(client.access, client, user, grant, deps, cacheGeneration);
    const { issued } = await signUserTokens({ client, user, groups, grant, scopes, nonce: null }, deps);
    return { ...issued, refreshToken: successor };
  },
};

async function claim(tokenHash: string, client: ClientRecord, deps: ProtocolDeps): Promise<ClaimedRefreshToken> {
  const claimed = await deps.refreshTokens.claim(tokenHash, client.clientId);
  if (claimed) {
    // Stored refresh tokens always carry offline_access and a grant revoked with them: only a database edited by hand fails here.
    if (!claimed.token.scopes.includes('offline_access')) throw invalid('The grant does not include offline_access.');
    if (claimed.grant.revokedAt !== null) throw invalid('The grant has been revoked.');
    return claimed;
  }
  const stored = await deps.refreshTokens.find(tokenHash);
  if (!stored) throw invalid('The refresh token is invalid.');
  const refusal = whyRefused(stored, client, deps.clock.now());
  if (refusal) throw refusal;
  // Rotated already: someone holds a stolen copy. Revoke the family.
  await deps.tokenStore.revokeGrant(deps.db, stored.token.grantId, deps.clock.now());
  throw invalid('The refresh token has already been used; the grant has been revoked.');
}

/** Why this token cannot be refreshed, in the order of the checks; null when only a rotation (a reuse) or nothing stands against it. */
function whyRefused(stored: StoredRefreshToken, client: ClientRecord, now: number): OAuthError | null {
  const record = stored.token;
  if (record.clientId !== client.clientId) return invalid('The refresh token is invalid.');
  if (record.revokedAt !== null) return invalid('The refresh token has been revoked.');
  if (record.expiresAt <= now) return invalid('The refresh token has expired.');
  if (!record.scopes.includes('offline_access')) return invalid('The grant does not include offline_access.');
  if (!stored.grant || stored.grant.revokedAt !== null) return invalid('The grant has been revoked.');
  return null;
}
