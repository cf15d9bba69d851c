import { JwtError, verifyJwt } from '../../keys/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';

export interface IdTokenHint {
  sub: string;
  /** The client the ID token was issued to (its aud). */
  clientId: string;
  /** The sign-in the token came from, epoch ms (OIDC Core §2 auth_time); null when absent. */
  authTime: number | null;
  /** The session the token was issued in (Back-Channel Logout 1.0 `sid`); null in tokens from before sid. */
  sid: string | null;
}

/**
 * An id_token_hint (RP-Initiated Logout 1.0 §2): one of our ID tokens,
 * checked by verifyJwt like any JWT (our key, an allowed alg, typ JWT, iss
 * ours), except its `exp`: "The OP SHOULD accept ID Tokens when the RP
 * identified by the ID Token's aud claim and/or sid claim has a current
 * session or had a recent session at the OP, even when the exp time has
 * passed." Whether it belongs to the current session is end-session's
 * question (by sid, or by sub and auth_time).
 */
export async function readIdTokenHint(
  hint: string,
  deps: Pick<ProtocolDeps, 'issuer' | 'keys' | 'clock'>,
): Promise<IdTokenHint> {
  try {
    const { payload } = await verifyJwt(hint, deps.keys, {
      typ: 'JWT',
      issuer: deps.issuer,
      requiredClaims: ['sub', 'aud'],
      now: deps.clock.now(),
      acceptExpired: true,
    });
    // Ours name exactly one audience, the client (OIDC Core §2, no azp).
    const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (typeof payload.sub !== 'string' || typeof aud !== 'string') throw new JwtError('the token has no sub or aud');
    return {
      sub: payload.sub,
      clientId: aud,
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time * 1000 : null,
      sid: typeof payload.sid === 'string' ? payload.sid : null,
    };
  } catch (error) {
    if (error instanceof JwtError)
      throw new OAuthError('invalid_request', 'The id_token_hint is not a valid ID token of this provider.');
    throw error;
  }
}
