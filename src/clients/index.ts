/**
 * Clients as the protocol sees them: the in-memory directory of stored
 * clients (refreshed within a second of a change), secret verification
 * (sha256 in constant time, argon2id verified once then remembered), client
 * authentication (client_secret_basic, client_secret_post, none: the
 * credentials are read at the HTTP edge, then verified against the
 * directory), the exact-match rule for post-logout redirect URIs, and the
 * web origins of the redirect URIs (which browser apps may call the token
 * side: CORS). Failures are data (ClientAuthenticationFailure): the
 * protocol endpoints in src/oidc render them, and nothing here imports
 * src/oidc.
 */
export { createClientDirectory, type ClientDirectory } from './client-directory.js';
export { type ClientOrigins } from './client-origins.js';
export { createClientSecretVerifier, type ClientSecretVerifier } from './verify-client-secret.js';
export type { ClientCredentials, ClientAuthenticationFailure, PresentedCredentials } from './client-credentials.js';
export { readClientCredentials } from './read-client-credentials.js';
export { verifyClientCredentials, type ClientAuthenticationDeps } from './verify-client-credentials.js';
export { isRegisteredPostLogoutRedirectUri } from './check-post-logout-redirect-uri.js';
