/** Upstream sign-in: connections and states in progress (src/federation). */
import type { ConnectionRecord, UpstreamStateRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface ConnectionRepository {
  /** The connection an upstream account signs in with. */
  findByUpstream(tx: Tx, providerId: string, subject: string): Promise<ConnectionRecord | null>;
  /** A user's connections, ordered by provider id. */
  listBySub(tx: Tx, sub: string): Promise<ConnectionRecord[]>;
  /**
   * Inserts the connection unless the upstream account is linked already
   * (to anyone) or the user has one for this provider: one
   * `INSERT … ON CONFLICT DO NOTHING`, so of concurrent callers exactly one
   * gets true and the others false, never an exception.
   */
  insert(tx: Tx, connection: ConnectionRecord): Promise<boolean>;
  /** Removes the user's connection to the provider; false when there was none. */
  delete(tx: Tx, sub: string, providerId: string): Promise<boolean>;
}

export interface UpstreamStateRepository {
  insert(tx: Tx, state: UpstreamStateRecord): Promise<void>;
  /**
   * Redeems a state once (RFC 6749 §10.12; CONTRIBUTING.md, "How the code is written", 9), and only for the
   * browser it is bound to: ONE conditional `UPDATE … SET consumed_at = now
   * WHERE state_hash = ? AND binding_hash = ? AND consumed_at IS NULL`, then
   * a read. Of concurrent callers exactly one sees `alreadyConsumed: false`.
   * Null when no such state exists for that binding: a callback from
   * another browser leaves the state unspent. Expiry is the caller's check.
   */
  consume(
    tx: Tx,
    key: { stateHash: string; bindingHash: string },
    now: number,
  ): Promise<{ record: UpstreamStateRecord; alreadyConsumed: boolean } | null>;
}
