import { createPrivateKey, type KeyObject } from 'node:crypto';
import { seal, unseal } from '../security/index.js';

/**
 * Private keys at rest (docs/oidc.md): the PKCS#8 DER sealed by
 * src/security/seal.ts, bound to the kid so that a sealed key cannot be
 * swapped onto another row.
 */
export function sealPrivateKey(privateKey: KeyObject, kek: Buffer, kid: string): string {
  return seal(privateKey.export({ format: 'der', type: 'pkcs8' }), kek, kid);
}

export function openPrivateKey(sealed: string, kek: Buffer, kid: string): KeyObject {
  if (!sealed.startsWith('v1.')) throw new Error(`signing key ${kid} is not in a known sealed format`);
  const der = unseal(sealed, kek, kid);
  if (der === null)
    throw new Error(`signing key ${kid} cannot be decrypted: security.secret differs from the one it was sealed with`);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}
