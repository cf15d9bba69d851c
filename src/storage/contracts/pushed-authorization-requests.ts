/** Pushed authorization requests (RFC 9126; src/oidc/par, src/oidc/authorize). */
import type { PushedAuthorizationRequestRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface PushedAuthorizationRequestRepository {
  insert(tx: Tx, record: PushedAuthorizationRequestRecord): Promise<void>;
  /**
   * Claims a pushed request once (RFC 9126 §7.3; CONTRIBUTING.md, "How the
   * code is written", 9): ONE conditional `UPDATE … SET used_at = now WHERE
   * request_hash = ? AND client_id = ? AND used_at IS NULL AND expires_at >
   * now`, then a read of the row it changed. Of concurrent callers on either
   * engine exactly one gets the record; the others, and every caller of an
   * unknown, expired, used or other client's request, get null.
   */
  claim(tx: Tx, requestHash: string, clientId: string, now: number): Promise<PushedAuthorizationRequestRecord | null>;
  /** Cleanup: removes up to `limit` requests that expired before `now`, used or not. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}
