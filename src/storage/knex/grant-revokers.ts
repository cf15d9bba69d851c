import type { GrantRevoker } from '../repositories.js';
import { sessionGrantRevoker } from './session-grant-revoker.js';
import { tokenGrantRevoker } from './token-grant-revoker.js';

/**
 * What apply revokes when a user leaves the config (soft-delete) or a client
 * is removed (docs/gitops.md, "Apply semantics"). Every revoker runs inside apply's transaction.
 *
 * Whoever stores something a user or client holds (sessions, tokens,
 * codes…) adds its revoker here.
 */
export const grantRevokers: GrantRevoker[] = [sessionGrantRevoker, tokenGrantRevoker];
