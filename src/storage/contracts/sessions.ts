/** Sessions and login rate limits (src/accounts/sessions.ts, login-rate-limit.ts). */
import type { LoginRateLimitCounter, SessionRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface SessionRepository {
  insert(tx: Tx, session: SessionRecord): Promise<void>;
  findByIdHash(tx: Tx, idHash: string): Promise<SessionRecord | null>;
  /** How many signed-in sessions (not pending a second factor) expire after `now`: the console's Overview. */
  countLive(tx: Tx, now: number): Promise<number>;
  update(tx: Tx, idHash: string, changes: Partial<Omit<SessionRecord, 'idHash' | 'publicId' | 'sub'>>): Promise<void>;
  /** The sessions of these users (a sign-out of all of them, which must know what it ends). */
  findBySubs(tx: Tx, subs: string[]): Promise<SessionRecord[]>;
  delete(tx: Tx, idHash: string): Promise<void>;
  /**
   * Gives a session a new id (a privilege change renews the cookie value,
   * docs/http-api.md "Session renewal") with these changes, and moves what
   * was issued in it (grants, authorization codes) along. False when no
   * session has `idHash` any more (ended meanwhile, or renewed by a
   * concurrent request).
   */
  renew(
    tx: Tx,
    idHash: string,
    newIdHash: string,
    changes: Partial<Omit<SessionRecord, 'idHash' | 'publicId' | 'sub'>>,
  ): Promise<boolean>;
  /** Revokes every session of a user at once (deletion, removal by apply). */
  deleteBySub(tx: Tx, sub: string): Promise<number>;
  /** Revokes every session of these users (apply's removal of many users): one statement per list, not per user. */
  deleteBySubs(tx: Tx, subs: string[]): Promise<void>;
  /** Revokes every session of a user but `keepIdHash` (a password change keeps the caller's). */
  deleteOthersOfUser(tx: Tx, sub: string, keepIdHash: string): Promise<number>;
  /** Cleanup: removes up to `limit` sessions that expired before `now`. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}

export interface LoginRateLimitRepository {
  find(tx: Tx, keys: string[]): Promise<LoginRateLimitCounter[]>;
  /**
   * Counts one attempt against the key in one atomic upsert and returns the
   * counter as that statement left it: a window that started before
   * `windowStartsAfter` restarts at `now` with 1.
   */
  countAttempt(tx: Tx, key: string, now: number, windowStartsAfter: number): Promise<LoginRateLimitCounter>;
  /** Takes back one attempt counted at `countedAt`, unless its window has restarted since. */
  release(tx: Tx, key: string, countedAt: number): Promise<void>;
  /** Forgets the key's counter; true when there was one. */
  clear(tx: Tx, key: string): Promise<boolean>;
  /** Cleanup: removes counters whose window started before `before`. */
  deleteStale(tx: Tx, before: number): Promise<number>;
}
