import { verify } from 'node:crypto';
import type { SigningKey } from './signing-key.js';

export interface VerifiedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** Why a JWS was refused; the caller turns it into its protocol's error. */
export class JwsError extends Error {}

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new JwsError(`the ${what} is not a JSON object`);
}

/**
 * Verifies a compact JWS against our own keys only. The key is chosen by
 * `kid` and the algorithm comes from the key, never from the token: `alg:
 * none` and algorithm confusion (RFC 8725 §2.1, §3.1) cannot pass.
 */
export async function verifyJws(token: string, findKey: (kid: string) => Promise<SigningKey | null>): Promise<VerifiedJws> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwsError('the token is not a compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts;
  const header = decodeJson(encodedHeader, 'header');
  if (typeof header.kid !== 'string') throw new JwsError('the token has no kid');
  if ('crit' in header) throw new JwsError('the token has critical header parameters');
  const key = await findKey(header.kid);
  if (!key) throw new JwsError('the token was signed by an unknown key');
  if (header.alg !== key.alg) throw new JwsError(`the token's alg is not ${key.alg}`);
  const data = Buffer.from(`${encodedHeader}.${encodedPayload}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  const valid =
    key.alg === 'ES256'
      ? verify('sha256', data, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, signature)
      : verify(key.alg === 'EdDSA' ? null : 'sha256', data, key.publicKey, signature);
  if (!valid) throw new JwsError('the token signature is invalid');
  return { header, payload: decodeJson(encodedPayload, 'payload') };
}
