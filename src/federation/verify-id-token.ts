import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { UpstreamError } from './federation-error.js';
import type { OpenIdMetadata } from './openid-metadata.js';

/** Leeway for the upstream's clock (exp, iat, nbf). */
const clockToleranceSeconds = 60;

/**
 * One remote key set per jwks_uri, kept by the federation service so that
 * keys are fetched once and refetched when an unknown `kid` appears (jose
 * createRemoteJWKSet does both, with a cooldown against refetch floods).
 */
export function createKeySets(timeoutMs: number) {
  const sets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  return (jwksUri: string) => {
    let set = sets.get(jwksUri);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeoutMs });
      sets.set(jwksUri, set);
    }
    return set;
  };
}

export type KeySets = ReturnType<typeof createKeySets>;

/**
 * OIDC Core §3.1.3.7: the ID token is signed by a key of the issuer's key
 * set, `iss` is the discovered issuer, `aud` holds our client id, `exp` has
 * not passed, and `nonce` is the one this sign-in sent. Any failure is an
 * UpstreamError naming which check failed.
 */
export async function verifyIdToken(
  idToken: string,
  expected: { metadata: OpenIdMetadata; clientId: string; nonce: string; now: number },
  keySets: KeySets,
): Promise<JWTPayload & { sub: string }> {
  let payload: JWTPayload;
  const { issuer } = expected.metadata;
  try {
    ({ payload } = await jwtVerify(idToken, keySets(expected.metadata.jwksUri), {
      // Google documents both forms of its issuer in ID tokens (OpenID Connect guide, "Validating an ID token").
      issuer: issuer === 'https://accounts.google.com' ? [issuer, 'accounts.google.com'] : issuer,
      audience: expected.clientId,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(expected.now),
      clockTolerance: clockToleranceSeconds,
    }));
  } catch (error) {
    throw new UpstreamError(`ID token: ${describe(error)}`);
  }
  if (payload.nonce !== expected.nonce) throw new UpstreamError('ID token: the nonce is not the one this sign-in sent');
  // §3.1.3.7 item 4: with several audiences, the token must say it was issued to us.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
    throw new UpstreamError('ID token: several audiences and azp is not our client id');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new UpstreamError('ID token: no sub');
  return payload as JWTPayload & { sub: string };
}

function describe(error: unknown): string {
  // JWTExpired is a JWTClaimValidationFailed: ask for it first.
  if (error instanceof errors.JWTExpired) return `expired (${error.message})`;
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim} failed: ${error.message}`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the issuer's key set matches";
  if (error instanceof errors.JOSEError) return `${error.code}: ${error.message}`;
  return (error as Error).message;
}
