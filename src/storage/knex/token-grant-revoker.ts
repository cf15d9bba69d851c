import type { GrantRevoker } from '../repositories.js';
import { knexTokenRepository } from './tokens.js';

/**
 * A removed user or client loses its grants: refresh tokens stop working at
 * once and the access tokens issued under those grants fail verification
 * (src/oidc/tokens/verify-access-token.ts checks the grant). Client
 * credentials tokens of a deleted client fail because the client is gone.
 * A user who loses one client loses the grants they gave it, and no other.
 * The batch forms keep apply's removal of thousands of users to a few
 * statements per 400 of them.
 */
export const tokenGrantRevoker: GrantRevoker = {
  revokeUser: (tx, sub) => knexTokenRepository.revokeGrantsOfUsers(tx, [sub], Date.now()),
  revokeClient: (tx, clientId) => knexTokenRepository.revokeGrantsOfClients(tx, [clientId], Date.now()),
  revokeUsersOfClient: (tx, clientId, subs) =>
    knexTokenRepository.revokeGrantsOfClientUsers(tx, clientId, subs, Date.now()),
  revokeUsers: (tx, subs) => knexTokenRepository.revokeGrantsOfUsers(tx, subs, Date.now()),
  revokeClients: (tx, clientIds) => knexTokenRepository.revokeGrantsOfClients(tx, clientIds, Date.now()),
};
