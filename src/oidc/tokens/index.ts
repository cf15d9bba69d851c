/**
 * Tokens the provider issues: RFC 9068 JWT access tokens, ID tokens, opaque
 * refresh tokens (stored hashed), and the verification of access tokens for
 * bearerAuth, userinfo, revocation and introspection, and of ID tokens sent
 * back as id_token_hint.
 */
export {
  issueAccessToken,
  grantIdClaim,
  userinfoClaimsClaim,
  type AccessTokenInput,
  type IssuedAccessToken,
} from './issue-access-token.js';
export { issueIdToken, type IdTokenInput } from './issue-id-token.js';
export { newOpaqueToken, hashOpaqueToken } from './opaque-token.js';
export {
  verifyAccessToken,
  verifyAccessTokenJwt,
  checkAccessTokenLive,
  invalidToken,
  type AccessTokenClaims,
} from './verify-access-token.js';
export {
  createRefreshTokenBatches,
  type ClaimedRefreshToken,
  type RefreshTokenBatches,
  type StoredRefreshToken,
} from './refresh-token-batches.js';
export { createVerifiedTokenCache, type VerifiedTokenCache } from './verified-token-cache.js';
export { readIdTokenHint, type IdTokenHint } from './read-id-token-hint.js';
