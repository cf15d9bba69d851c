/** Device authorization requests (RFC 8628; src/oidc/device and the device_code grant). */
import type { DeviceApproval, DeviceCodeRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface DeviceCodeRepository {
  /** Stores a new request; false (nothing stored) when its user code is taken by a stored one. */
  insert(tx: Tx, record: DeviceCodeRecord): Promise<boolean>;
  /** The request with this user code (upper case, no dash), whatever its state; null when none. */
  findByUserCode(tx: Tx, userCode: string): Promise<DeviceCodeRecord | null>;
  /** The request with this device code digest; null when none. */
  findByDeviceCode(tx: Tx, deviceCodeHash: string): Promise<DeviceCodeRecord | null>;
  /** Records who allowed a pending, unexpired request on the consent page; false when it is no longer one. */
  confirm(tx: Tx, userCode: string, sub: string, now: number): Promise<boolean>;
  /**
   * Ends a pending, unexpired request, in one conditional update: approved
   * with the sign-in (only by the user who confirmed it), or denied. False
   * when it was not pending any more (another tab decided first) or expired.
   */
  decide(tx: Tx, userCode: string, decision: DeviceApproval | 'denied', now: number): Promise<boolean>;
  /** Records a poll (RFC 8628 §3.5): when it came, and the interval from now on. */
  recordPoll(tx: Tx, deviceCodeHash: string, now: number, intervalSeconds: number): Promise<void>;
  /**
   * Spends an approved request: ONE conditional `UPDATE … SET spent_at WHERE
   * spent_at IS NULL AND status = 'approved'`. Of concurrent callers exactly
   * one gets true; it alone may issue tokens.
   */
  spend(tx: Tx, deviceCodeHash: string, now: number): Promise<boolean>;
  /**
   * A sign-out of these sessions (SessionRecord.idHash): requests they
   * approved whose device has not polled its tokens yet are denied, so no
   * grant comes out of a session that ended (the device gets access_denied).
   */
  denyApprovedOfSessions(tx: Tx, sessionIds: string[]): Promise<void>;
  /** Cleanup: removes up to `limit` requests that expired before `now`. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}
