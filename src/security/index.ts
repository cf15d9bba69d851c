/**
 * The server secret: `security.secret`, or one generated once and kept in
 * the database, and the purpose-bound keys derived from it (session cookie,
 * signing keys at rest).
 */
export { deriveKey, resolveServerSecret, serverSecretSetting } from './resolve-server-secret.js';
