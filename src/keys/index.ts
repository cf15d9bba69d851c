/**
 * Signing keys and the JWKS (docs/oidc.md). Flow: on start the KeyStore loads
 * the keys from the signing_keys table, creates one for each algorithm it
 * needs that has none (RS256 always, tokens.signing_alg, the clients'
 * id_token_signed_response_alg; race-safe across instances by unique
 * generation), decrypts their private halves with a key derived from
 * security.secret, and signs with the newest key of each algorithm.
 * `idp keys rotate` adds a key per algorithm; replaced keys stay published
 * until the tokens they signed have expired. JWTs are signed with
 * node:crypto in a worker pool (sign-jwt.ts says why) and verified with
 * jose against the store's local JWK Set (verify-jwt.ts).
 */
export { createKeyStore, keyRefreshIntervalMs, keySwitchWithinMs, type KeyStore } from './key-store.js';
export { rotateSigningKey, type RotationDeps } from './rotate-signing-key.js';
export { signJwt } from './sign-jwt.js';
export { createSigningPool, type SigningPool } from './signing-pool.js';
export { verifyJwt, JwtError } from './verify-jwt.js';
export { jwkThumbprint, type SigningKey } from './signing-key.js';
export { keyEncryptionKey } from './key-encryption-key.js';
