/** The first admin's one-time setup links (src/admin/first-admin-setup.ts). */
import type { Tx } from './tx.js';

export interface FirstAdminTokenRecord {
  /** base64url SHA-256 of the raw token in the link. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
}

export interface FirstAdminTokenRepository {
  insert(tx: Tx, token: FirstAdminTokenRecord): Promise<void>;
  find(tx: Tx, tokenHash: string): Promise<FirstAdminTokenRecord | null>;
  /**
   * Deletes every token and returns those it deleted: the setup's single-use
   * step. PostgreSQL's `DELETE … RETURNING` locks the rows, so a concurrent
   * caller waits and then finds none; SQLite runs one transaction at a time.
   */
  takeAll(tx: Tx): Promise<FirstAdminTokenRecord[]>;
  /** Removes the tokens that expired before `now`; returns how many. */
  deleteExpired(tx: Tx, now: number): Promise<number>;
}
