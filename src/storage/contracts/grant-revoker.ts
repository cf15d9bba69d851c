/** The revocation hooks apply calls for removed users and clients, and for users who lose a client (src/gitops). */
import type { Tx } from './tx.js';

/**
 * Revokes what a removed principal holds (sessions, tokens, codes). apply
 * calls every revoker of `Repositories.grantRevokers` inside its
 * transaction, for each user it soft-deletes and each client it deletes.
 * The optional batch forms, when present, are used instead of the single
 * ones (removing 10,000 users is then a few statements, not 10,000); apply
 * hands them at most 400 ids at a time.
 *
 * `revokeUsersOfClient` is for users who stay but lose one client (its
 * `access` or their groups or role changed): what they hold for that client
 * only, at most 400 subs per call.
 */
export interface GrantRevoker {
  revokeUser(tx: Tx, sub: string): Promise<void>;
  revokeClient(tx: Tx, clientId: string): Promise<void>;
  revokeUsersOfClient(tx: Tx, clientId: string, subs: string[]): Promise<void>;
  revokeUsers?(tx: Tx, subs: string[]): Promise<void>;
  revokeClients?(tx: Tx, clientIds: string[]): Promise<void>;
}
