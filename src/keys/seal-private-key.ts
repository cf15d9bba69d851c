import { createCipheriv, createDecipheriv, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Private keys at rest (DESIGN.md 7): AES-256-GCM under a key derived from
 * security.secret, with the kid as additional data so that a sealed key
 * cannot be swapped onto another row. Format: v1.<iv>.<tag>.<ciphertext>.
 */
export function sealPrivateKey(privateKey: KeyObject, kek: Buffer, kid: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(Buffer.from(kid));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openPrivateKey(sealed: string, kek: Buffer, kid: string): KeyObject {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !ciphertext) throw new Error(`signing key ${kid} is not in a known sealed format`);
  const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    const der = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    throw new Error(`signing key ${kid} cannot be decrypted: security.secret differs from the one it was sealed with`);
  }
}
