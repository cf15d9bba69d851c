import { deriveKey } from '../security/resolve-server-secret.js';

/** The AES-256 key that seals private signing keys, bound to this one purpose (HKDF). */
export function keyEncryptionKey(secret: string): Buffer {
  return Buffer.from(deriveKey(secret, 'signing keys'), 'hex');
}
