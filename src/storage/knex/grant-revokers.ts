import type { GrantRevoker } from '../repositories.js';
import { sessionGrantRevoker } from './session-grant-revoker.js';
import { tokenGrantRevoker } from './token-grant-revoker.js';

/**
 * What apply revokes when a user leaves the config (soft-delete) or a client
 * is removed (DESIGN.md 5). Every revoker runs inside apply's transaction.
 *
 * Empty for now: the engineers who own sessions and tokens add their
 * revokers here (e.g. sessions: revokeUser deletes the user's sessions;
 * tokens: revokeUser/revokeClient revoke refresh tokens and codes).
 */
export const grantRevokers: GrantRevoker[] = [sessionGrantRevoker, tokenGrantRevoker];
