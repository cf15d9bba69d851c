import { createHash, type KeyObject } from 'node:crypto';
import type { SigningAlgorithm } from '../model/index.js';

/** A usable signing key: the private half stays in memory, decrypted, as a KeyObject. */
export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  generation: number;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The JWKS entry: kty and key members, kid, alg, use. */
  publicJwk: Record<string, unknown>;
  retireAt: number | null;
}

/** RFC 7638 §3.2: the required members in lexicographic order, hashed with SHA-256. */
const thumbprintMembers: Partial<Record<string, string[]>> = {
  RSA: ['e', 'kty', 'n'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
};

export function jwkThumbprint(jwk: Record<string, unknown>): string {
  const members = thumbprintMembers[String(jwk.kty)];
  if (!members) throw new Error(`unsupported key type ${String(jwk.kty)}`);
  const canonical = `{${members.map((m) => `${JSON.stringify(m)}:${JSON.stringify(jwk[m])}`).join(',')}}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The public JWK of a key, as published (RFC 7517 §4: kid, alg, use). */
export function publicJwkOf(publicKey: KeyObject, alg: SigningAlgorithm): Record<string, unknown> {
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const members = thumbprintMembers[String(jwk.kty)] ?? [];
  const published: Record<string, unknown> = {};
  for (const m of members) published[m] = jwk[m];
  return { ...published, kid: jwkThumbprint(jwk), alg, use: 'sig' };
}
