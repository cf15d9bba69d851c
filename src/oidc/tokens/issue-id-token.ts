import { createHash } from 'node:crypto';
import { signJwt, type SigningKey } from '../../keys/index.js';
import type { SigningAlgorithm, UserRecord } from '../../model/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { acrOf } from '../acr.js';
import { userClaims } from '../user-claims.js';

export interface IdTokenInput {
  user: UserRecord;
  /** The user's groups when `scopes` hold `groups`, else null (../user-claims.ts). */
  groups: readonly string[] | null;
  clientId: string;
  /** The client's id_token_signed_response_alg (OIDC Registration §2; RS256 unless it names another). */
  alg: SigningAlgorithm;
  scopes: string[];
  authTime: number;
  /** RFC 8176 methods of the sign-in; no claim when empty (unknown). */
  amr: string[];
  /** The user claims the `claims` parameter asked for in the ID token (../claims-request.ts). */
  requestedClaims: readonly string[];
  nonce: string | null;
  accessToken: string;
  /** The public id of the session the grant came from (OpenID Back-Channel Logout 1.0 §2.4); null: none. */
  sid: string | null;
}

/** OIDC Core §3.1.3.6: left half of the hash of the access token, with the hash of the signing alg. */
function atHash(accessToken: string, key: SigningKey): string {
  // Ed25519 signs with SHA-512 (RFC 8037), so EdDSA's at_hash uses SHA-512.
  const digest = createHash(key.alg === 'EdDSA' ? 'sha512' : 'sha256')
    .update(accessToken)
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/**
 * The ID token (OIDC Core §2): iss, sub, aud (the client alone, so no azp
 * is needed, §2), exp, iat, auth_time, amr (the factors of the sign-in,
 * RFC 8176), acr (../acr.ts, from amr), nonce when the request had one,
 * at_hash, sid when the grant came from a browser session (Back-Channel
 * Logout §2.4), and the profile, e-mail and groups claims of the granted
 * scopes (§5.4) and of the `claims` parameter (§5.5, ../user-claims.ts).
 */
export async function issueIdToken(
  input: IdTokenInput,
  deps: Pick<ProtocolDeps, 'issuer' | 'tokens' | 'clock' | 'keys' | 'signingPool'>,
): Promise<string> {
  const key = await deps.keys.signingKey(input.alg);
  const now = Math.floor(deps.clock.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: deps.issuer,
    sub: input.user.sub,
    aud: input.clientId,
    exp: now + deps.tokens.idTokenTtlSeconds,
    iat: now,
    auth_time: Math.floor(input.authTime / 1000),
    at_hash: atHash(input.accessToken, key),
  };
  if (input.amr.length > 0) claims.amr = input.amr;
  claims.acr = acrOf(input.amr);
  if (input.nonce !== null) claims.nonce = input.nonce;
  if (input.sid !== null) claims.sid = input.sid;
  Object.assign(claims, userClaims(input.user, input.scopes, input.groups, input.requestedClaims));
  return signJwt(deps.signingPool, key, 'JWT', claims);
}
