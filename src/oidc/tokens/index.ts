/**
 * Tokens the provider issues: RFC 9068 JWT access tokens, ID tokens, opaque
 * refresh tokens (stored hashed), and the verification of access tokens for
 * bearerAuth, userinfo, revocation and introspection.
 */
export { issueAccessToken, grantIdClaim, type AccessTokenInput, type IssuedAccessToken } from './issue-access-token.js';
export { issueIdToken, type IdTokenInput } from './issue-id-token.js';
export { newOpaqueToken, hashOpaqueToken } from './opaque-token.js';
export { verifyAccessToken, decodeAccessToken, checkAccessTokenLive, invalidToken, type AccessTokenClaims } from './verify-access-token.js';
