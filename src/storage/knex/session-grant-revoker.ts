import type { GrantRevoker } from '../repositories.js';
import { knexSessionRepository } from './sessions.js';

/**
 * A user removed by apply loses its browser sessions in apply's transaction;
 * clients hold no sessions, and a user who loses one client keeps the
 * session (the client's access rule refuses it there).
 */
export const sessionGrantRevoker: GrantRevoker = {
  async revokeUser(tx, sub) {
    await knexSessionRepository.deleteBySub(tx, sub);
  },
  async revokeClient() {},
  async revokeUsersOfClient() {},
  revokeUsers: (tx, subs) => knexSessionRepository.deleteBySubs(tx, subs),
  async revokeClients() {},
};
