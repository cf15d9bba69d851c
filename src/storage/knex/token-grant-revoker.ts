import type { GrantRevoker } from '../repositories.js';
import { knexTokenRepository } from './tokens.js';

/**
 * A removed user or client loses its grants: refresh tokens stop working at
 * once and the access tokens issued under those grants fail verification
 * (src/oidc/tokens/verify-access-token.ts checks the grant). Client
 * credentials tokens of a deleted client fail because the client is gone.
 */
export const tokenGrantRevoker : GrantRevoker = {
  revokeUser: (tx, sub) => knexTokenRepository.revokeGrantsOfUser(tx, sub, Date.now()),
  revokeClient: (tx, clientId) => knexTokenRepository.revokeGrantsOfClient(tx, clientId, Date.now()),
};
