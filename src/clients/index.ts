/**
 * Clients as the protocol sees them: the in-memory directory of stored
 * clients (refreshed within a second of a change), secret verification
 * (sha256 in constant time, argon2id verified once then remembered), client
 * authentication (client_secret_basic, client_secret_post, none), the
 * exact-match rule for post-logout redirect URIs, and the web origins of the
 * redirect URIs (which browser apps may call the token side: CORS).
 */
export { createClientDirectory, type ClientDirectory } from './client-directory.js';
export { type ClientOrigins } from './client-origins.js';
export { createClientSecretVerifier, type ClientSecretVerifier } from './verify-client-secret.js';
export { authenticateClient, basicChallenge, type ClientAuthenticationDeps } from './authenticate-client.js';
export { type ClientCredentialsInput } from './client-credentials-input.js';
export { isRegisteredPostLogoutRedirectUri } from './check-post-logout-redirect-uri.js';
