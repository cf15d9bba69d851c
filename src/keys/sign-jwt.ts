import { sign } from 'node:crypto';
import type { SigningKey } from './signing-key.js';
import { derToJoseSignature } from './der-to-jose-signature.js';

const headerCache = new WeakMap<SigningKey, Map<string, string>>();

/** The encoded protected header for this key and `typ`, built once per pair. */
function encodedHeader(key: SigningKey, typ: string): string {
  let byTyp = headerCache.get(key);
  if (!byTyp) headerCache.set(key, (byTyp = new Map()));
  let header = byTyp.get(typ);
  if (!header) {
    header = Buffer.from(JSON.stringify({ alg: key.alg, typ, kid: key.kid })).toString('base64url');
    byTyp.set(typ, header);
  }
  return header;
}

/**
 * A compact JWS (RFC 7515) signed with node:crypto directly, not jose.
 * Measured on this 2-core machine (docs/oidc.md, "Performance"): jose's
 * SignJWT managed ~2,300 ES256 tokens/s under concurrency against ~21,600
 * for a bare `crypto.sign`; but inside the server a synchronous ES256 sign
 * cost ~75 µs of main-thread time per request (33 µs in a hot loop), and
 * the token endpoint did 3,700 req/s. Signing on the libuv pool
 * (crypto.sign with a callback) lets the second core sign while the main
 * thread parses: 5,000 req/s. So RSA and ECDSA sign on the pool; Ed25519
 * is cheap enough to sign inline.
 */
export async function signJwt(key: SigningKey, typ: string, payload: Record<string, unknown>): Promise<string> {
  const input = `${encodedHeader(key, typ)}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const data = Buffer.from(input);
  let signature: Buffer;
  if (key.alg === 'EdDSA') signature = sign(null, data, key.privateKey);
  else {
    const der = await new Promise<Buffer>((resolve, reject) => sign('sha256', data, key.privateKey, (error, result) => (error ? reject(error) : resolve(result))));
    signature = key.alg === 'ES256' ? derToJoseSignature(der) : der;
  }
  return `${input}.${signature.toString('base64url')}`;
}
