/**
 * The storage table of contents: every repository interface, in one file,
 * and the Storage that bundles them with transactions. Implementations live
 * in ./knex/ (the only code that imports knex) and pass one conformance suite
 * on SQLite and PostgreSQL (test/storage/conformance/).
 *
 * Conventions: records are the types of src/model/; times are epoch
 * milliseconds; e-mails are compared case-insensitively (stored lower-cased
 * beside the original); every method takes a `Tx`, the unit of work it runs
 * in: `storage.db` (each statement commits on its own) or the `tx` of
 * `storage.transaction(work)`.
 */
import type {
  AuthorizationCodeRecord,
  BackgroundJobRecord,
  BackgroundJobState,
  ClientRecord,
  ConnectionRecord,
  EventRecord,
  EventType,
  NewEventRecord,
  ConsentRecord,
  GrantRecord,
  IdentityProviderRecord,
  JobLease,
  LinkTokenPurpose,
  LinkTokenRecord,
  LoginRateLimitCounter,
  ManagedBy,
  PasskeyRecord,
  RefreshTokenRecord,
  SchedulerLeaseRecord,
  SessionRecord,
  SigningAlgorithm,
  SigningKeyRecord,
  TermAcceptanceRecord,
  TermRecord,
  TermVersionRecord,
  TotpCredentialRecord,
  UpstreamStateRecord,
  UserRecord,
  UserRole,
  WebAuthnChallengeRecord,
} from '../model/index.js';

declare const unitOfWork: unique symbol;

/**
 * An opaque unit of work. Only the storage implementation knows what is
 * inside (a connection pool or an open transaction); everyone else passes
 * it along, so no service depends on the database library.
 */
export interface Tx {
  readonly [unitOfWork]: true;
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

// ---------------------------------------------------------------------------
// Sessions and login rate limits (src/accounts/sessions.ts, login-rate-limit.ts)
// ---------------------------------------------------------------------------

export interface SessionRepository {
  insert(tx: Tx, session: SessionRecord): Promise<void>;
  findByIdHash(tx: Tx, idHash: string): Promise<SessionRecord | null>;
  update(tx: Tx, idHash: string, changes: Partial<Omit<SessionRecord, 'idHash' | 'sub'>>): Promise<void>;
  delete(tx: Tx, idHash: string): Promise<void>;
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

// ---------------------------------------------------------------------------
// Second factors (src/accounts: totp-service.ts, passkey-service.ts)
// ---------------------------------------------------------------------------

export interface TotpRepository {
  find(tx: Tx, sub: string): Promise<TotpCredentialRecord | null>;
  /**
   * Starts an enrolment: stores the pending secret, replacing a pending one,
   * in one conditional upsert that never touches a confirmed TOTP. False when
   * the user has a confirmed TOTP.
   */
  savePending(tx: Tx, record: TotpCredentialRecord): Promise<boolean>;
  /**
   * Confirms the pending enrolment whose secret is `sealedSecret` and records
   * `step` as used: ONE conditional update (`… WHERE confirmed_at IS NULL AND
   * secret = ?`). True for exactly one of concurrent callers; false when it
   * was confirmed or replaced meanwhile.
   */
  confirm(tx: Tx, sub: string, sealedSecret: string, step: number, now: number): Promise<boolean>;
  /**
   * Accepts a code's time step once (RFC 6238 §5.2): ONE conditional update
   * `SET last_used_step = step WHERE confirmed_at IS NOT NULL AND
   * (last_used_step IS NULL OR last_used_step < step)`. True for exactly one
   * of concurrent callers; false for a step used already, or an earlier one.
   */
  useStep(tx: Tx, sub: string, step: number): Promise<boolean>;
  /** Removes the user's TOTP, pending or confirmed; true when there was one. */
  delete(tx: Tx, sub: string): Promise<boolean>;
  /** Which of these users have a confirmed TOTP. */
  findConfirmedSubs(tx: Tx, subs: string[]): Promise<Set<string>>;
}

export interface RecoveryCodeRepository {
  /** Replaces every code of the user with these (hashes), unused. */
  replace(tx: Tx, sub: string, codeHashes: string[], now: number): Promise<void>;
  /**
   * Uses one code: ONE conditional update `SET used_at = now WHERE sub = ?
   * AND code_hash = ? AND used_at IS NULL`. True for exactly one of
   * concurrent callers; false for an unknown or used code.
   */
  use(tx: Tx, sub: string, codeHash: string, now: number): Promise<boolean>;
  /** Unused codes per user, for these users (absent: none). */
  countUnused(tx: Tx, subs: string[]): Promise<Map<string, number>>;
  deleteBySub(tx: Tx, sub: string): Promise<number>;
}

export interface PasskeyRepository {
  /** False when the credential id is registered already (to anyone): `ON CONFLICT DO NOTHING`. */
  insert(tx: Tx, passkey: PasskeyRecord): Promise<boolean>;
  /** The user's passkeys, oldest first. */
  listBySub(tx: Tx, sub: string): Promise<PasskeyRecord[]>;
  findByCredentialId(tx: Tx, credentialId: string): Promise<PasskeyRecord | null>;
  /**
   * Records a sign-in with the passkey: the authenticator's new signature
   * counter, its backup state and the time. The counter only moves forward:
   * an update that would not raise a non-zero counter changes nothing and
   * answers false (a cloned authenticator, or a lost race).
   */
  recordUse(tx: Tx, id: string, use: { signCount: number; backedUp: boolean; usedAt: number }): Promise<boolean>;
  /** Renames one of the user's passkeys; false when the user has no passkey with this id. */
  rename(tx: Tx, sub: string, id: string, name: string): Promise<boolean>;
  /** Removes one of the user's passkeys; false when the user has no passkey with this id. */
  delete(tx: Tx, sub: string, id: string): Promise<boolean>;
  deleteBySub(tx: Tx, sub: string): Promise<number>;
  /** Passkeys per user, for these users (absent: none). */
  countBySubs(tx: Tx, subs: string[]): Promise<Map<string, number>>;
}

export interface WebAuthnChallengeRepository {
  insert(tx: Tx, challenge: WebAuthnChallengeRecord): Promise<void>;
  /**
   * Takes a challenge once: a read, then ONE `DELETE … WHERE challenge = ?`
   * whose row count decides. Exactly one of concurrent callers gets the
   * record; the others, and every later caller, get null. Expiry is the
   * caller's check.
   */
  consume(tx: Tx, challenge: string): Promise<WebAuthnChallengeRecord | null>;
}

// ---------------------------------------------------------------------------
// Mailed links and terms acceptances (src/accounts: registration, e-mail
// verification, password reset)
// ---------------------------------------------------------------------------

export interface LinkTokenRepository {
  insert(tx: Tx, token: LinkTokenRecord): Promise<void>;
  /** The token, used or not, expired or not; null when unknown. A look before the work a redemption needs, never a redemption. */
  find(tx: Tx, tokenHash: string): Promise<LinkTokenRecord | null>;
  /**
   * Redeems a token once (DESIGN.md 11, STYLE habit 9): ONE conditional
   * `UPDATE … SET used_at = now WHERE token_hash = ? AND purpose = ? AND
   * used_at IS NULL AND expires_at > now`, then a read of the row it changed.
   * Of concurrent callers on either engine exactly one gets the record; the
   * others, and every caller of an unknown, expired, used or other-purpose
   * token, get null.
   */
  redeem(tx: Tx, tokenHash: string, purpose: LinkTokenPurpose, now: number): Promise<LinkTokenRecord | null>;
  /** Marks every unused token of the user for the purpose used (one redeemed link voids its siblings); returns how many. */
  voidUnused(tx: Tx, sub: string, purpose: LinkTokenPurpose, now: number): Promise<number>;
  /** Cleanup: removes up to `limit` tokens that expired before `now`, used or not. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}

/** Which versions of which terms a user accepted, and when (registration now; the terms API builds on it). */
export interface TermAcceptanceRepository {
  /**
   * Records acceptances. History is never overwritten: accepting a version
   * already recorded for the user changes nothing (`ON CONFLICT DO NOTHING`),
   * so the first acceptance time of a version stands.
   */
  record(tx: Tx, acceptances: TermAcceptanceRecord[]): Promise<void>;
  /** Every acceptance of the user, oldest first (then by term id and version). */
  listBySub(tx: Tx, sub: string): Promise<TermAcceptanceRecord[]>;
  /**
   * For each (term, version): how many live users accepted it, and how many
   * live users there are in all (so the rest have still to accept it).
   * One round trip whatever the number of terms.
   */
  countLive(
    tx: Tx,
    versions: { termId: string; version: string }[],
  ): Promise<{ accepted: number[]; liveUsers: number }>;
}

// ---------------------------------------------------------------------------
// Authorization codes and consents (src/oidc/authorize, src/interaction)
// ---------------------------------------------------------------------------

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
}

export interface ConsentRepository {
  find(tx: Tx, sub: string, clientId: string): Promise<ConsentRecord | null>;
  /** Adds scopes to the user's grant for the client (creating it): read, merge, one upsert. */
  grant(tx: Tx, sub: string, clientId: string, scopes: string[], now: number): Promise<ConsentRecord>;
  listBySub(tx: Tx, sub: string): Promise<ConsentRecord[]>;
  revoke(tx: Tx, sub: string, clientId: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------
// Config-managed objects: clients, terms, identity providers, settings, and
// the revocation hooks apply calls (src/gitops/)
// ---------------------------------------------------------------------------

export interface ClientRepository {
  findById(tx: Tx, clientId: string): Promise<ClientRecord | null>;
  /** Every client, ordered by client_id. */
  listAll(tx: Tx): Promise<ClientRecord[]>;
  /** Inserts many rows in batches. */
  insertMany(tx: Tx, clients: ClientRecord[]): Promise<void>;
  update(tx: Tx, clientId: string, changes: Partial<Omit<ClientRecord, 'clientId' | 'createdAt'>>): Promise<void>;
  deleteMany(tx: Tx, clientIds: string[]): Promise<void>;
}

export interface TermRepository {
  findById(tx: Tx, id: string): Promise<TermRecord | null>;
  /** Every term, ordered by id. */
  listAll(tx: Tx): Promise<TermRecord[]>;
  /**
   * Inserts or replaces the term and records (id, version) in term_versions:
   * a new version string adds a history row; saving the same version again
   * refreshes that row's content.
   */
  save(tx: Tx, term: TermRecord): Promise<void>;
  /** Removes the term; its version history stays (acceptances refer to it). */
  delete(tx: Tx, id: string): Promise<void>;
  /** History of one term, oldest first. */
  listVersions(tx: Tx, termId: string): Promise<TermVersionRecord[]>;
}

export interface IdentityProviderRepository {
  findById(tx: Tx, id: string): Promise<IdentityProviderRecord | null>;
  /** Every provider, ordered by id. */
  listAll(tx: Tx): Promise<IdentityProviderRecord[]>;
  /** Inserts or replaces the provider. */
  save(tx: Tx, provider: IdentityProviderRecord): Promise<void>;
  delete(tx: Tx, id: string): Promise<void>;
}

// ─── Upstream sign-in: connections and states in progress (src/federation) ───

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
   * Redeems a state once (RFC 6749 §10.12, STYLE habit 9): ONE conditional
   * `UPDATE … SET consumed_at = now WHERE state_hash = ? AND consumed_at IS NULL`,
   * then a read. Of concurrent callers exactly one sees `alreadyConsumed:
   * false`. Null when no such state exists. Expiry and the browser binding
   * are the caller's checks.
   */
  consume(
    tx: Tx,
    stateHash: string,
    now: number,
  ): Promise<{ record: UpstreamStateRecord; alreadyConsumed: boolean } | null>;
}

/** Small key/value facts the server keeps about itself (generated keys, last apply). */
export interface SettingsRepository {
  get(tx: Tx, key: string): Promise<string | null>;
  /** Inserts or overwrites. */
  set(tx: Tx, key: string, value: string, now: number): Promise<void>;
  /**
   * Returns the stored value, or stores `create()` and returns it. Atomic:
   * two callers racing on the same key both get the one value that won.
   */
  getOrCreate(tx: Tx, key: string, create: () => string, now: number): Promise<string>;
  delete(tx: Tx, key: string): Promise<void>;
}

/**
 * Revokes what a removed principal holds (sessions, tokens, codes). apply
 * calls every revoker of `Repositories.grantRevokers` inside its
 * transaction, for each user it soft-deletes and each client it deletes.
 * The optional batch forms, when present, are used instead of the single
 * ones (removing 10,000 users is then a few statements, not 10,000); apply
 * hands them at most 400 ids at a time.
 */
export interface GrantRevoker {
  revokeUser(tx: Tx, sub: string): Promise<void>;
  revokeClient(tx: Tx, clientId: string): Promise<void>;
  revokeUsers?(tx: Tx, subs: string[]): Promise<void>;
  revokeClients?(tx: Tx, clientIds: string[]): Promise<void>;
}

// ─── Scheduler: background jobs, schedule leases, expired rows ───

export interface BackgroundJobRepository {
  insert(tx: Tx, job: BackgroundJobRecord): Promise<void>;
  findById(tx: Tx, id: string): Promise<BackgroundJobRecord | null>;
  /** Newest first. */
  list(tx: Tx, query: { state?: BackgroundJobState; limit: number }): Promise<BackgroundJobRecord[]>;
  countByState(tx: Tx): Promise<Record<BackgroundJobState, number>>;
  /**
   * Atomically claims one job: the oldest due pending job, or a running job
   * whose lease expired before `now` with attempts left. The job becomes
   * running under `owner` until `leaseExpiresAt`, and its attempts grow by
   * one. Two claimers never get the same job: one statement with
   * `FOR UPDATE SKIP LOCKED` on PostgreSQL, one write statement (SQLite's
   * single writer) on SQLite.
   */
  claim(
    tx: Tx,
    claim: { owner: string; now: number; leaseExpiresAt: number; kinds: string[] },
  ): Promise<BackgroundJobRecord | null>;
  /**
   * Marks running jobs whose lease expired after their last allowed attempt
   * as failed (their worker died on the final attempt). Returns them.
   */
  failExpiredExhausted(tx: Tx, now: number): Promise<BackgroundJobRecord[]>;
  /** Extends the lease; false when the lease is no longer ours (the job was re-claimed). */
  renewLease(tx: Tx, lease: JobLease, now: number, leaseExpiresAt: number): Promise<boolean>;
  /** running → succeeded, only while the lease is ours. */
  markSucceeded(tx: Tx, lease: JobLease, now: number): Promise<boolean>;
  /** running → pending (retry at `runAt`), only while the lease is ours. */
  markRetry(tx: Tx, lease: JobLease, now: number, runAt: number, error: string): Promise<boolean>;
  /** running → failed (terminal), only while the lease is ours. */
  markFailed(tx: Tx, lease: JobLease, now: number, error: string): Promise<boolean>;
  /** running → pending without counting the attempt (graceful shutdown), only while the lease is ours. */
  release(tx: Tx, lease: JobLease, now: number): Promise<boolean>;
  /** Deletes up to `limit` terminal jobs finished before `before`; pending and running jobs are never touched. */
  deleteTerminalBefore(tx: Tx, before: number, limit: number): Promise<number>;
}

export interface SchedulerLeaseRepository {
  /** Creates the row (last tick = `now`, so no past tick runs) unless it exists; returns the row. */
  ensure(tx: Tx, name: string, now: number): Promise<SchedulerLeaseRecord>;
  find(tx: Tx, name: string): Promise<SchedulerLeaseRecord | null>;
  list(tx: Tx): Promise<SchedulerLeaseRecord[]>;
  /**
   * Claims `tick` for `owner` in one conditional update: only when the
   * recorded last tick is older than `tick` and nobody holds a live lease.
   * Exactly one of several instances waking at once gets true.
   */
  claimTick(
    tx: Tx,
    claim: { name: string; owner: string; tick: number; now: number; expiresAt: number },
  ): Promise<boolean>;
  /** Extends a held lease; false when it is not ours any more. */
  renew(tx: Tx, name: string, owner: string, expiresAt: number, now: number): Promise<boolean>;
  /** Releases a held lease and records the outcome of the run. */
  finish(tx: Tx, name: string, owner: string, now: number, error: string | null): Promise<boolean>;
}

/** Batched deletion of expired rows from another capability's table (cleanup jobs). */
export interface ExpiredRowsRepository {
  /**
   * Deletes up to `limit` rows of `table` where `column` < `before`.
   * Returns the count deleted; callers repeat until it is below `limit`.
   */
  deleteBatch(tx: Tx, target: { table: string; column: string; before: number; limit: number }): Promise<number>;
}

// ─── Keys and tokens (src/keys, src/oidc/{token,grants,tokens,…}) ───

export interface SigningKeyRepository {
  /** Keys still published (retire_at null or in the future), newest generation first. */
  listLive(tx: Tx, now: number): Promise<SigningKeyRecord[]>;
  /** Every key, newest generation first (`idp keys list`). */
  listAll(tx: Tx): Promise<SigningKeyRecord[]>;
  /**
   * Inserts the key unless its generation is taken (another instance won the
   * race to create or rotate): one `INSERT … ON CONFLICT (generation) DO
   * NOTHING`. True when this key was inserted.
   */
  insertIfGenerationFree(tx: Tx, key: SigningKeyRecord): Promise<boolean>;
  /**
   * Schedules every key of `alg` below `generation` that has no retire time
   * yet to retire at `retireAt`: a rotation replaces the key of one
   * algorithm, the others keep signing.
   */
  retireOlderThan(tx: Tx, alg: SigningAlgorithm, generation: number, retireAt: number): Promise<void>;
}

/** One refresh of a group commit: the presented token, the client presenting it, and the hash of the token that replaces it. */
export interface RefreshClaim {
  tokenHash: string;
  clientId: string;
  successorHash: string;
}

export interface TokenRepository {
  /** Inserts the grant unless its id exists (`ON CONFLICT DO NOTHING`); true when inserted. */
  insertGrant(tx: Tx, grant: GrantRecord): Promise<boolean>;
  findGrant(tx: Tx, grantId: string): Promise<GrantRecord | null>;
  /** Moves the grant's expiry forward (never back) when a later token outlives it. */
  extendGrant(tx: Tx, grantId: string, expiresAt: number): Promise<void>;
  /** Revokes the grant and every refresh token under it (replay, reuse, RFC 7009). */
  revokeGrant(tx: Tx, grantId: string, now: number): Promise<void>;
  /** Revokes every grant (and refresh token) of these users, or of these clients: a few statements, however many ids. */
  revokeGrantsOfUsers(tx: Tx, subs: string[], now: number): Promise<void>;
  revokeGrantsOfClients(tx: Tx, clientIds: string[], now: number): Promise<void>;
  /** Revokes every grant (and refresh token) the user gave this client: a withdrawn consent. */
  revokeGrantsOfUserForClient(tx: Tx, sub: string, clientId: string, now: number): Promise<void>;
  /**
   * Revokes the user's grants (and their refresh tokens) that were not
   * issued in the session `keepSessionId` (SessionRecord.idHash), those
   * without a session included: a password change ends what every other
   * session obtained.
   */
  revokeGrantsOfUserOutsideSession(tx: Tx, sub: string, keepSessionId: string, now: number): Promise<void>;
  insertRefreshToken(tx: Tx, token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(tx: Tx, tokenHash: string): Promise<RefreshTokenRecord | null>;
  /**
   * The refresh tokens with these hashes and their grants (null when the
   * grant is gone), keyed by hash: one query for the refreshes and
   * introspections of one event-loop turn.
   */
  findRefreshTokensWithGrants(
    tx: Tx,
    tokenHashes: string[],
  ): Promise<Map<string, { token: RefreshTokenRecord; grant: GrantRecord | null }>>;
  /**
   * Group commit of refresh-token rotations (issue #16): per client, ONE
   * conditional `UPDATE … SET rotated_at = now, successor_hash = …
   * WHERE client_id = ? AND token_hash IN (…) AND rotated_at IS NULL
   * AND revoked_at IS NULL AND expires_at > now RETURNING` the token and its
   * grant. It claims each token exactly once across instances, and its
   * trigger (migrations/0018) stores the successor, expiring at
   * `successorExpiresAt`, and lengthens a grant that would expire first, in
   * the same statement. A group of several clients runs its statements in
   * one transaction: a group is claimed whole or not at all. Resolves with
   * what was claimed, by presented hash (a hash listed twice is claimed for
   * its first claim by its own client), and the cache generation the
   * statement saw (null when nothing was claimed).
   */
  claimRefreshTokens(
    tx: Tx,
    claims: RefreshClaim[],
    times: { now: number; successorExpiresAt: number },
  ): Promise<{ claimed: Map<string, { token: RefreshTokenRecord; grant: GrantRecord }>; generation: number | null }>;
  /** RFC 7009 revocation of one JWT access token by its jti until its exp. */
  revokeAccessToken(tx: Tx, jti: string, expiresAt: number): Promise<void>;
  /**
   * In one round trip: the access token's jti is not revoked and, when it
   * has a grant, that grant exists, is not revoked, and belongs to the
   * token's `sub` and `clientId` (RFC 9068 §4 leaves no room for a token
   * that names someone else than its grant). Every bearer request asks
   * this, so it is one query, not two.
   */
  isAccessTokenLive(
    tx: Tx,
    jti: string,
    grant: { grantId: string; sub: string; clientId: string } | null,
  ): Promise<boolean>;
}

export interface EventListQuery {
  type?: EventType;
  actor?: string;
  subject?: string;
  /** Inclusive lower bound of `time`. */
  since?: number;
  /** Exclusive upper bound of `time`. */
  until?: number;
  page: number;
  pageSize: number;
}

export interface EventRepository {
  /** Appends one event in the unit of work of the change it records, so a rolled-back change leaves no event. */
  append(tx: Tx, event: NewEventRecord): Promise<void>;
  /** One page of matching events, newest first (time, then id), and how many match in all. */
  list(tx: Tx, query: EventListQuery): Promise<{ events: EventRecord[]; total: number }>;
  /** Deletes up to `limit` events older than `before`; resolves with how many went. */
  deleteBefore(tx: Tx, before: number, limit: number): Promise<number>;
}

/**
 * The cache generation (migrations/0017): bumped by triggers in the
 * transaction of every change an in-memory cache may hold (grant or access
 * token revoked, user changed). src/storage/generation-gate.ts reads it.
 */
export interface CacheGenerationRepository {
  read(tx: Tx): Promise<number>;
}

/** A cheap probe of the clients table, so that a cache knows when to reload. */
export interface ClientChangeProbe {
  /** Changes whenever a client is inserted, updated or deleted (count and latest updated_at). */
  fingerprint(tx: Tx): Promise<string>;
}

// ─── The storage: every repository, transactions, and the database's life ───

export interface Repositories {
  users: UserRepository;
  sessions: SessionRepository;
  loginRateLimits: LoginRateLimitRepository;
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: PasskeyRepository;
  webauthnChallenges: WebAuthnChallengeRepository;
  linkTokens: LinkTokenRepository;
  termAcceptances: TermAcceptanceRepository;
  authorizationCodes: AuthorizationCodeRepository;
  consents: ConsentRepository;
  clients: ClientRepository;
  clientProbe: ClientChangeProbe;
  terms: TermRepository;
  identityProviders: IdentityProviderRepository;
  connections: ConnectionRepository;
  upstreamStates: UpstreamStateRepository;
  settings: SettingsRepository;
  backgroundJobs: BackgroundJobRepository;
  schedulerLeases: SchedulerLeaseRepository;
  expiredRows: ExpiredRowsRepository;
  signingKeys: SigningKeyRepository;
  tokens: TokenRepository;
  cacheGeneration: CacheGenerationRepository;
  events: EventRepository;
  /** What apply revokes for a removed user or client; whoever stores something a principal holds adds one. */
  grantRevokers: GrantRevoker[];
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

/** The database as the rest of the program sees it: repositories and units of work, no query library. */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  /** The unit of work outside any transaction: each statement commits on its own. */
  readonly db: Tx;
  readonly repositories: Repositories;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Serialises `idp apply` across processes; call it first thing inside the
   * apply transaction. Released when the transaction ends.
   */
  takeApplyLock(tx: Tx): Promise<void>;
  /**
   * Brings the query planner's statistics up to date after bulk writes, at
   * the end of the transaction that made them: `changedRows` counts the
   * rows it inserted, updated or deleted, per table. PostgreSQL ANALYZEs
   * where autovacuum would (50 rows + 10% of the table changed), without
   * waiting for it; SQLite does nothing (src/storage/knex/refresh-statistics.ts).
   */
  refreshStatistics(tx: Tx, changedRows: { users: number; clients: number }): Promise<void>;
  /**
   * Runs `effect` once the unit of work has committed (at once outside a
   * transaction), and never when it rolls back: for what must not happen
   * for a change that did not happen, such as a log line about it.
   */
  afterCommit(tx: Tx, effect: () => void): void;
  /** One trivial query: rejects when the database does not answer. */
  ping(): Promise<void>;
  /** Runs the pending migrations (migrations/ is the one source of the schema); resolves with their names. */
  migrate(): Promise<string[]>;
  migrationStatus(): Promise<MigrationStatus>;
  /** Closes every connection. */
  close(): Promise<void>;
}
