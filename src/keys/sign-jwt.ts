import type { SigningKey } from './signing-key.js';
import type { SigningPool } from './signing-pool.js';

const headerCache = new WeakMap<SigningKey, Map<string, string>>();

/** The encoded protected header for this key and `typ`, built once per pair. */
function encodedHeader(key: SigningKey, typ: string): string {
  let byTyp = headerCache.get(key);
  if (!byTyp) headerCache.set(key, (byTyp = new Map<string, string>()));
  let header = byTyp.get(typ);
  if (!header) {
    header = Buffer.from(JSON.stringify({ alg: key.alg, typ, kid: key.kid })).toString('base64url');
    byTyp.set(typ, header);
  }
  return header;
}

/**
 * A compact JWS (RFC 7515) signed with node:crypto directly, not jose: jose's
 * SignJWT managed ~2,300 ES256 tokens/s under concurrency on this 2-core
 * machine against ~21,600 for a bare `crypto.sign`. The signature itself is
 * computed off the main thread by the signing pool (signing-pool.ts says why).
 */
export async function signJwt(
  pool: SigningPool,
  key: SigningKey,
  typ: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const input = `${encodedHeader(key, typ)}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${await pool.sign(key.privateKey, key.alg, input)}`;
}
