import { createHmac, randomBytes } from 'node:crypto';

/** settings key of the per-database HMAC key behind identity-provider secret fingerprints. */
export const FINGERPRINT_KEY_SETTING = 'gitops.fingerprint_key';

export function generateFingerprintKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A keyed digest of an upstream identity provider's client secret. The
 * secret stays in the config file; the database keeps only this value so
 * that diff can tell when the secret changed. Keyed (HMAC-SHA-256) so that
 * the stored value is no unsalted hash of a possibly short secret.
 */
export function fingerprintSecret(key: string, secret: string): string {
  return `hmac-sha256:${createHmac('sha256', key).update(secret, 'utf8').digest('base64url')}`;
}
