/**
 * The OpenID Connect / OAuth 2.0 protocol engine, one folder per endpoint
 * named after its spec: authorize (RFC 6749 §4.1, OIDC Core §3.1.2), par
 * (pushed authorization requests, RFC 9126), token
 * and its grants/ (RFC 6749 §3.2, §4–6), tokens/ (issuing and checking JWT
 * access tokens, RFC 9068, and ID tokens), userinfo (OIDC Core §5.3),
 * revocation (RFC 7009), introspection (RFC 7662), end-session
 * (RP-Initiated Logout 1.0), backchannel-logout (Back-Channel Logout 1.0:
 * the Logout Token job), device (RFC 8628: the device authorization
 * endpoint and the device verification) and discovery (OIDC Discovery,
 * JWKS). It takes
 * typed requests and returns typed results or throws OAuthError; it never
 * imports hapi (src/http adapts it).
 */
export { createProtocolDeps, issuerOf, signingKeyRetireAfterMs } from './create-protocol-deps.js';
export type { ProtocolDeps } from './protocol-deps.js';
export { OAuthError, type OAuthErrorCode } from './errors.js';
