import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError } from '../errors.js';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const verifierShape = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) must equal the stored
 * challenge. A verifier sent for a code issued without a challenge is also
 * refused (RFC 9700 §2.1.1: PKCE downgrade).
 */
export function verifyPkce(codeChallenge: string | null, codeVerifier: string | undefined): void {
  if (codeChallenge === null) {
    if (codeVerifier !== undefined)
      throw new OAuthError('invalid_grant', 'A code_verifier was sent for a code issued without PKCE.');
    return;
  }
  if (codeVerifier === undefined) throw new OAuthError('invalid_grant', 'The code_verifier is missing.');
  if (!verifierShape.test(codeVerifier)) throw new OAuthError('invalid_grant', 'The code_verifier is malformed.');
  const computed = createHash('sha256').update(codeVerifier).digest();
  const expected = Buffer.from(codeChallenge, 'base64url');
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
  }
}
