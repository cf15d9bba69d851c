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

// ---------------------------------------------------------------------------
// Authorization codes and consents (issue 4: src/oidc/authorize, src/interaction)
// ---------------------------------------------------------------------------

export interface AuthorizationCodeRecord {
  /** base64url SHA-256 of the code; the code itself is never stored. */
  codeHash: string;
  /** Shared by every token issued from this code, so a replay can revoke them all. */
  grantId: string;
  clientId: string;
  sub: string;
  redirectUri: string;
  scopes: string[];
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
  /** idHash of the session the code was issued in (SessionRecord.idHash), if any. */
  sessionId: string | null;
  expiresAt: number;
  consumedAt: number | null;
  createdAt: number;
}

export interface AuthorizationCodeRepository {
  insert(tx: Tx, record: AuthorizationCodeRecord): Promise<void>;
  /**
   * Redeems a code once (RFC 6749 §4.1.2, STYLE habit 9): ONE conditional
   * `UPDATE … SET consumed_at = now WHERE code_hash = ? AND consumed_at IS NULL`,
   * then a read. Of concurrent callers on either engine exactly one sees
   * `alreadyConsumed: false`; every later caller gets the record with
   * `alreadyConsumed: true` (a replay: revoke what the grant issued).
   * Null when no such code exists. Expiry is the caller's check.
   */
  consume(tx: Tx, codeHash: string, now: number): Promise<{ record: AuthorizationCodeRecord; alreadyConsumed: boolean } | null>;
  /** Cleanup: removes up to `limit` codes that expired before `now`. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}

export interface ConsentRecord {
  sub: string;
  clientId: string;
  scopes: string[];
  grantedAt: number;
}

export interface ConsentRepository {
  find(tx: Tx, sub: string, clientId: string): Promise<ConsentRecord | null>;
  /** Adds scopes to the user's grant for the client (creating it): read, merge, one upsert. */
  grant(tx: Tx, sub: string, clientId: string, scopes: string[], now: number): Promise<ConsentRecord>;
  listBySub(tx: Tx, sub: string): Promise<ConsentRecord[]>;
  revoke(tx: Tx, sub: string, clientId: string): Promise<boolean>;
}
