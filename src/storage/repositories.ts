/**
 * The storage table of contents: every repository interface, in one file.
 * Implementations live in ./knex/ (the only code that imports knex) and pass
 * one conformance suite on SQLite and PostgreSQL (test/storage/).
 *
 * Conventions: times are epoch milliseconds; e-mails are compared
 * case-insensitively (stored lower-cased beside the original); methods that
 * take a `Tx` run inside the caller's transaction.
 */
import type { Knex } from 'knex';

/** A knex handle or a transaction: repositories accept either. */
export type Tx = Knex | Knex.Transaction;

export type ManagedBy = 'database' | 'config';
export type UserRole = 'user' | 'admin';

export interface UserRecord {
  sub: string;
  managedBy: ManagedBy;
  email: string;
  role: UserRole;
  emailVerified: boolean;
  emailVerificationRequired: boolean;
  passwordHash: string | null;
  secondFactorRequired: boolean;
  deletedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

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
  list(tx: Tx, query: UserListQuery): Promise<{ users: UserRecord[]; total: number }>;
  insert(tx: Tx, user: UserRecord): Promise<void>;
  /** Inserts many rows in batches (apply of thousands of users). */
  insertMany(tx: Tx, users: UserRecord[]): Promise<void>;
  update(tx: Tx, sub: string, changes: Partial<Omit<UserRecord, 'sub' | 'createdAt'>>): Promise<void>;
}
