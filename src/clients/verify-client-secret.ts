import { timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../accounts/passwords.js';
import { hashClientSecret } from './hash-client-secret.js';

/**
 * Checks a presented client secret (RFC 6749 §2.3.1) against the stored
 * form: `sha256:…` (a configured `client_secret`, compared in constant
 * time) or an argon2id PHC string (a configured `client_secret_hash`).
 * A public client (null) has no secret to match.
 */
export async function verifyClientSecret(stored: string | null, presented: string): Promise<boolean> {
  if (stored === null) return false;
  if (stored.startsWith('sha256:')) {
    const expected = Buffer.from(stored, 'utf8');
    const actual = Buffer.from(hashClientSecret(presented), 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  return verifyPassword(stored, presented);
}
