/** Authorization codes and consents (src/oidc/authorize, src/interaction). */
import type { AuthorizationCodeRecord, ConsentRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface AuthorizationCodeRepository {
  insert(tx: Tx, record: AuthorizationCodeRecord): Promise<void>;
  /**
   * Redeems a code once (RFC 6749 §4.1.2; CONTRIBUTING.md, "How the code is written", 9): ONE conditional
   * `UPDATE … SET consumed_at = now WHERE code_hash = ? AND consumed_at IS NULL`,
   * then a read. Of concurrent callers on either engine exactly one sees
   * `alreadyConsumed: false`; every later caller gets the record with
   * `alreadyConsumed: true` (a replay: revoke what the grant issued).
   * Null when no such code exists. Expiry is the caller's check.
   */
  consume(
    tx: Tx,
    codeHash: string,
    now: number,
  ): Promise<{ record: AuthorizationCodeRecord; alreadyConsumed: boolean } | null>;
  /** Cleanup: removes up to `limit` codes that expired before `now`. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
  /**
   * Deletes the user's codes not yet redeemed that were issued in any
   * session but `keepSessionId` (SessionRecord.idHash), so that no new grant
   * comes out of a session that has just been ended. Redeemed codes stay
   * until they expire: a replay must still be recognised.
   */
  deleteUnredeemedOutsideSession(tx: Tx, sub: string, keepSessionId: string): Promise<number>;
  /** The same for a sign-out: the unredeemed codes issued in these sessions (SessionRecord.idHash). */
  deleteUnredeemedOfSessions(tx: Tx, sessionIds: string[]): Promise<void>;
}

export interface ConsentRepository {
  find(tx: Tx, sub: string, clientId: string): Promise<ConsentRecord | null>;
  /** Adds scopes to the user's grant for the client (creating it): read, merge, one upsert. */
  grant(tx: Tx, sub: string, clientId: string, scopes: string[], now: number): Promise<ConsentRecord>;
  listBySub(tx: Tx, sub: string): Promise<ConsentRecord[]>;
  revoke(tx: Tx, sub: string, clientId: string): Promise<boolean>;
}
