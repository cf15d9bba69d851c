import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { KeyStore } from './key-store.js';
import { signingAlgorithms } from './signing-algorithms.js';

export interface JwtExpectations {
  /** The one `typ` this kind of token carries (RFC 8725 §3.11: no cross-JWT confusion). */
  typ: string;
  /** `iss`, compared exactly. */
  issuer: string;
  /** When set, `aud` must contain it (and be present). */
  audience?: string;
  /** Claims that must be present besides iss and aud. */
  requiredClaims?: string[];
  /** Now, epoch ms (the injected clock). */
  now: number;
  /** Seconds of leeway on `exp` and `nbf`; none by default. */
  clockToleranceSeconds?: number;
  /** Accept a token whose only fault is its `exp`: an id_token_hint (RP-Initiated Logout 1.0 §2). */
  acceptExpired?: boolean;
}

export interface VerifiedJwt {
  payload: JWTPayload;
}

/** Why a JWT was refused, as a phrase for the caller's protocol error. */
export class JwtError extends Error {}

const allowedAlgorithms = [...signingAlgorithms];

function toJwtError(error: errors.JOSEError): JwtError {
  if (error instanceof errors.JWTExpired) return new JwtError('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new JwtError(
      error.reason === 'missing'
        ? `the token has no ${error.claim}`
        : `the token's ${error.claim} is not the expected one`,
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new JwtError("the token's alg is not allowed");
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return new JwtError('the token was signed by an unknown key');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new JwtError('the token signature is invalid');
  return new JwtError('the token is not a well-formed JWT');
}

/**
 * A JWT signed by one of our published keys, checked by jose's jwtVerify
 * (RFC 7519 §7.2, RFC 8725): the algorithm on the allow-list of those we
 * sign with (`none`, HS256 and the like never pass) and equal to the key's
 * own (the key is chosen by `kid` in the key store's local JWK Set), then
 * `typ`, `iss`, `aud`, `nbf` and `exp`. jose errors become JwtError;
 * anything else (a database that fails during a reload) propagates.
 */
export async function verifyJwt(
  token: string,
  keys: Pick<KeyStore, 'verificationKey'>,
  expected: JwtExpectations,
): Promise<VerifiedJwt> {
  try {
    const { payload } = await jwtVerify(token, keys.verificationKey, {
      algorithms: allowedAlgorithms,
      typ: expected.typ,
      issuer: expected.issuer,
      audience: expected.audience,
      requiredClaims: expected.requiredClaims,
      currentDate: new Date(expected.now),
      clockTolerance: expected.clockToleranceSeconds,
    });
    return { payload };
  } catch (error) {
    // jose checks exp last, after the signature and every other claim, and hands back the payload.
    if (expected.acceptExpired && error instanceof errors.JWTExpired) return { payload: error.payload };
    if (error instanceof errors.JOSEError) throw toJwtError(error);
    throw error;
  }
}
