import { sealingKey } from '../security/index.js';

/** The AES-256 key that seals private signing keys, bound to this one purpose (HKDF). */
export function keyEncryptionKey(secret: string): Buffer {
  return sealingKey(secret, 'signing keys');
}
