/**
 * Signing keys and the JWKS (DESIGN.md 7). Flow: on start the KeyStore loads
 * the keys from the signing_keys table (creating the first one, race-safe
 * across instances by unique generation), decrypts their private halves with
 * a key derived from security.secret, and signs with the newest generation.
 * `idp keys rotate` adds a generation; older keys stay published until the
 * tokens they signed have expired. JWTs are signed and verified with
 * node:crypto directly (sign-jwt.ts explains why).
 */
export { createKeyStore, keyRefreshIntervalMs, type KeyStore } from './key-store.js';
export { rotateSigningKey, type RotationDeps } from './rotate-signing-key.js';
export { signJwt } from './sign-jwt.js';
export { createSigningPool, type SigningPool } from './signing-pool.js';
export { verifyJws, JwsError, type VerifiedJws } from './verify-jws.js';
export { jwkThumbprint, type SigningKey } from './signing-key.js';
export { keyEncryptionKey } from './key-encryption-key.js';
