import type { AuthorizationCodeRecord, GrantRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import { hashOpaqueToken } from '../tokens/index.js';
import type { Checked, Grant } from './grant.js';
import { missingParameters, type AuthorizationCodeRequest } from './grant-request.js';
import { signUserTokens } from './sign-user-tokens.js';
import { storeUserGrant } from './store-user-grant.js';
import { loadGrantUser } from './load-grant-user.js';
import { verifyPkce } from './verify-pkce.js';

interface CheckedCode extends Checked {
  record: AuthorizationCodeRecord;
  now: number;
}

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636). The code is consumed first, in one
 * atomic statement, so that it is single-use whatever happens next; a
 * replayed code fails and revokes every token issued under its grant
 * (RFC 6749 §4.1.2 and §10.5). The request takes no scope: it gets the
 * code's, as consented at the authorization endpoint.
 */
export const authorizationCodeGrant: Grant<AuthorizationCodeRequest, CheckedCode> = {
  grantType: 'authorization_code',
  read(form) {
    const { code, redirect_uri: redirectUri } = form;
    if (!code || !redirectUri) return missingParameters({ code, redirect_uri: redirectUri });
    return { grantType: 'authorization_code', code, redirectUri, codeVerifier: form.code_verifier };
  },
  async check(request, client, deps) {
    const now = deps.clock.now();
    const consumed = await deps.codes.consume(deps.db, hashOpaqueToken(request.code), now);
    if (!consumed) throw new OAuthError('invalid_grant', 'The authorization code is invalid.');
    const { record, alreadyConsumed } = consumed;
    if (alreadyConsumed) {
      // RFC 6749 §4.1.2: "If an authorization code is used more than once, the
      // authorization server MUST deny the request and SHOULD revoke (when
      // possible) all tokens previously issued based on that authorization code."
      // A replay may arrive before the first redemption has stored its grant:
      // a revoked grant row stored now makes that redemption fail instead.
      await deps.tokenStore.insertGrant(deps.db, grantOf(record, now, now));
      await deps.tokenStore.revokeGrant(deps.db, record.grantId, now);
      throw new OAuthError('invalid_grant', 'The authorization code has already been used.');
    }
    if (record.clientId !== client.clientId)
      throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
    if (record.expiresAt <= now) throw new OAuthError('invalid_grant', 'The authorization code has expired.');
    // RFC 6749 §4.1.3: identical to the redirect_uri of the authorization request.
    if (request.redirectUri !== record.redirectUri)
      throw new OAuthError('invalid_grant', 'The redirect_uri does not match the authorization request.');
    // Defence in depth: the authorization endpoint already demands PKCE of these clients.
    if (record.codeChallenge === null && (client.tokenEndpointAuthMethod === 'none' || client.requirePkce)) {
      throw new OAuthError('invalid_grant', 'The code was issued without PKCE, which this client requires.');
    }
    verifyPkce(record.codeChallenge, request.codeVerifier);
    return { allowedScopes: record.scopes, record, now };
  },
  // Unreachable while the request carries no scope (above); kept in the words of the refresh grant.
  scopeRefusal: 'The scope may only be narrowed; not granted: ',
  async issue({ record, now }, scopes, client, deps) {
    const { user, groups } = await loadGrantUser(record.sub, scopes, deps, undefined, record.claims?.idToken);
    const grant = grantOf(record, null, now);
    const { issued, accessExpiresAt } = await signUserTokens(
      { client, user, groups, grant, scopes, nonce: record.nonce },
      deps,
    );
    const tokens = await storeUserGrant(grant, client, { issued, accessExpiresAt }, deps);
    if (tokens === null) throw new OAuthError('invalid_grant', 'The authorization code has already been used.');
    return tokens;
  },
};

function grantOf(record: AuthorizationCodeRecord, revokedAt: number | null, now: number): GrantRecord {
  return {
    grantId: record.grantId,
    clientId: record.clientId,
    sub: record.sub,
    scopes: record.scopes,
    authTime: record.authTime,
    amr: record.amr,
    sessionId: record.sessionId,
    sid: record.sid,
    claims: record.claims,
    revokedAt,
    expiresAt: now,
    createdAt: now,
  };
}
