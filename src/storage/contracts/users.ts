/** Users (src/accounts, src/admin, apply). */
import type { ManagedBy, UserRecord, UserRole } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface UserListQuery {
  /** Case-insensitive substring of e-mail or sub. */
  query?: string;
  includeDeleted: boolean;
  managedBy?: ManagedBy;
  role?: UserRole;
  page: number;
  pageSize: number;
}

export interface UserRepository {
  findBySub(tx: Tx, sub: string): Promise<UserRecord | null>;
  /** Live (not soft-deleted) user holding this e-mail, compared case-insensitively. */
  findLiveByEmail(tx: Tx, email: string): Promise<UserRecord | null>;
  listByManager(tx: Tx, managedBy: ManagedBy): Promise<UserRecord[]>;
  /**
   * One page of users, ordered by e-mail (case-insensitive) then sub. `query`
   * is matched literally: LIKE wildcards (`%`, `_`) in it are escaped.
   */
  list(tx: Tx, query: UserListQuery): Promise<{ users: UserRecord[]; total: number }>;
  /** Every user holding one of these subs (any manager, deleted or not), in batches. */
  findBySubs(tx: Tx, subs: string[]): Promise<UserRecord[]>;
  /** Live users holding one of these e-mails (compared case-insensitively), in batches. */
  findLiveByEmails(tx: Tx, emails: string[]): Promise<UserRecord[]>;
  insert(tx: Tx, user: UserRecord): Promise<void>;
  /** Inserts many rows in batches (apply of thousands of users). */
  insertMany(tx: Tx, users: UserRecord[]): Promise<void>;
  update(tx: Tx, sub: string, changes: Partial<Omit<UserRecord, 'sub' | 'createdAt'>>): Promise<void>;
  /**
   * Replaces a database-managed user's password hash only while it is still
   * `current`: ONE conditional update, so that a sign-in's rehash never
   * undoes a password changed or reset meanwhile. True when it replaced it.
   */
  replacePasswordHash(tx: Tx, sub: string, current: string, next: string): Promise<boolean>;
  /** Applies the same changes to many users in batched statements (apply's soft-delete of removed users). */
  updateMany(tx: Tx, subs: string[], changes: Partial<Omit<UserRecord, 'sub' | 'createdAt'>>): Promise<void>;
  /**
   * Cleanup's erasure (account_deletion.grace_period_days): deletes up to
   * `limit` database-managed users soft-deleted before `before`, oldest
   * first, and with them every row that references the user (ON DELETE
   * CASCADE). Each erased sub is kept in erased_users (erased at `now`) so
   * that it is never given again. Config-managed users are never erased: the
   * file may bring them back. Returns how many were erased.
   */
  eraseDeleted(tx: Tx, batch: { before: number; limit: number; now: number }): Promise<number>;
  /** Which of these subs belonged to an erased user, in batches. */
  findErasedSubs(tx: Tx, subs: string[]): Promise<string[]>;
}
