/**
 * The server secret: `security.secret`, or one generated once and kept in
 * the database, and the purpose-bound keys derived from it (session cookie,
 * signing keys and TOTP secrets at rest, recovery-code hashes), with the
 * sealing of secrets at rest.
 */
export { deriveKey, resolveServerSecret, serverSecretSetting } from './resolve-server-secret.js';
export { seal, sealingKey, unseal } from './seal.js';
