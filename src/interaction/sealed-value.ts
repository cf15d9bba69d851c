import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals a small JSON value for a cookie with AES-256-GCM: the browser can
 * neither read it nor change it. The key is derived from the server's cookie
 * password and a purpose label, so one cookie cannot be replayed as another.
 */
export function sealValue(value: unknown, password: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(password, purpose), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The sealed value, or null when it was not sealed by this server for this purpose. */
export function unsealValue(text: string, password: string, purpose: string): unknown {
  try {
    const raw = Buffer.from(text, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', deriveKey(password, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as unknown;
  } catch {
    return null;
  }
}

function deriveKey(password: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\0${password}`).digest();
}
