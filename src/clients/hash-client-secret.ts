import { createHash } from 'node:crypto';

/**
 * How a configured `client_secret` is stored: `sha256:<base64url of
 * SHA-256>`. Client secrets are long random strings, so a fast hash is
 * enough (no dictionary to guess from) and keeps the token endpoint fast; a
 * `client_secret_hash` (argon2id PHC) from the config is stored as is.
 */
export function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;
}
