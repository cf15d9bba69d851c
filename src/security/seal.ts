import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './resolve-server-secret.js';

/**
 * Secrets at rest (signing keys, TOTP secrets): AES-256-GCM under a key
 * derived from security.secret for one purpose (deriveKey), with the row's
 * identity (a kid, a sub) as additional data, so that a sealed value cannot
 * be copied onto another row. Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export function seal(plain: Buffer, key: Buffer, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain bytes; null when the value is not in this format, or was sealed with another key or for another row. */
export function unseal(sealed: string, key: Buffer, boundTo: string): Buffer | null {
  const parts = sealed.split('.');
  const [version, iv, tag, ciphertext] = parts;
  if (parts.length !== 4 || version !== 'v1' || !iv || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  } catch {
    return null;
  }
}

/** A 32-byte key for `seal`, derived from the server secret for one purpose. */
export function sealingKey(secret: string, purpose: string): Buffer {
  return Buffer.from(deriveKey(secret, purpose), 'hex');
}
