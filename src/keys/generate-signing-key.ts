import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { SigningAlgorithm, SigningKeyRecord } from '../model/index.js';
import { sealPrivateKey } from './seal-private-key.js';
import { publicJwkOf } from './signing-key.js';

function generatePair(alg: SigningAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  switch (alg) {
    case 'RS256':
      return generateKeyPairSync('rsa', { modulusLength: 2048 });
    case 'ES256':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' });
    case 'EdDSA':
      return generateKeyPairSync('ed25519');
  }
}

/** A new key pair as a storage record, its private half sealed with `kek`. */
export function generateSigningKey(
  alg: SigningAlgorithm,
  generation: number,
  kek: Buffer,
  now: number,
): SigningKeyRecord {
  const { privateKey, publicKey } = generatePair(alg);
  const publicJwk = publicJwkOf(publicKey, alg);
  const kid = String(publicJwk.kid);
  return {
    kid,
    generation,
    alg,
    publicJwk,
    privateKey: sealPrivateKey(privateKey, kek, kid),
    createdAt: now,
    retireAt: null,
  };
}
