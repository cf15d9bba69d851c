/**
 * The storage table of contents: every repository contract (one file per
 * concept in ./contracts/) and the Storage that bundles them with transactions. Implementations live
 * in ./knex/ (the only code that imports knex) and pass one conformance suite
 * on SQLite and PostgreSQL (test/storage/conformance/).
 *
 * Conventions: records are the types of src/model/; times are epoch
 * milliseconds; e-mails are compared case-insensitively (stored lower-cased
 * beside the original); every method takes a `Tx`, the unit of work it runs
 * in: `storage.db` (each statement commits on its own) or the `tx` of
 * `storage.transaction(work)`.
 */
import type { Tx } from './contracts/tx.js';
import type { UserRepository } from './contracts/users.js';
import type { LoginRateLimitRepository, SessionRepository } from './contracts/sessions.js';
import type {
  PasskeyRepository,
  RecoveryCodeRepository,
  TotpRepository,
  WebAuthnChallengeRepository,
} from './contracts/second-factors.js';
import type { LinkTokenRepository } from './contracts/link-tokens.js';
import type { AuthorizationCodeRepository, ConsentRepository } from './contracts/authorization.js';
import type { ClientChangeProbe, ClientRepository } from './contracts/clients.js';
import type { TermAcceptanceRepository, TermRepository } from './contracts/terms.js';
import type { IdentityProviderRepository } from './contracts/identity-providers.js';
import type { ConnectionRepository, UpstreamStateRepository } from './contracts/connections.js';
import type { SettingsRepository } from './contracts/settings.js';
import type { GrantRevoker } from './contracts/grant-revoker.js';
import type { BackgroundJobRepository, SchedulerLeaseRepository } from './contracts/jobs.js';
import type { CollectGarbage } from './contracts/garbage.js';
import type { SigningKeyRepository } from './contracts/keys.js';
import type { CacheGenerationRepository, TokenRepository } from './contracts/tokens.js';
import type { EventRepository } from './contracts/events.js';
import type { GroupRepository } from './contracts/groups.js';
import type { PushedAuthorizationRequestRepository } from './contracts/pushed-authorization-requests.js';
import type { DeviceCodeRepository } from './contracts/device-codes.js';
import type { Snapshots } from './contracts/snapshots.js';
import type { FirstAdminTokenRepository } from './contracts/first-admin-tokens.js';

export type * from './contracts/tx.js';
export type * from './contracts/users.js';
export type * from './contracts/sessions.js';
export type * from './contracts/second-factors.js';
export type * from './contracts/link-tokens.js';
export type * from './contracts/authorization.js';
export type * from './contracts/clients.js';
export type * from './contracts/terms.js';
export type * from './contracts/identity-providers.js';
export type * from './contracts/connections.js';
export type * from './contracts/settings.js';
export type * from './contracts/grant-revoker.js';
export type * from './contracts/jobs.js';
export type * from './contracts/garbage.js';
export type * from './contracts/keys.js';
export type * from './contracts/tokens.js';
export type * from './contracts/events.js';
export type * from './contracts/groups.js';
export type * from './contracts/pushed-authorization-requests.js';
export type * from './contracts/device-codes.js';
export type * from './contracts/snapshots.js';
export type * from './contracts/first-admin-tokens.js';

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
  signingKeys: SigningKeyRepository;
  tokens: TokenRepository;
  cacheGeneration: CacheGenerationRepository;
  events: EventRepository;
  groups: GroupRepository;
  pushedAuthorizationRequests: PushedAuthorizationRequestRepository;
  deviceCodes: DeviceCodeRepository;
  firstAdminTokens: FirstAdminTokenRepository;
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
  /** The cleanup job's deletions (CollectGarbage): only the storage names tables and columns. */
  collectGarbage: CollectGarbage;
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
  /** Whole-database snapshots for backup and restore (contracts/snapshots.ts). */
  readonly snapshots: Snapshots;
  /**
   * The cache generation (migrations/0017) as the database holds it now,
   * on a connection of its own (src/storage/knex/generation-reader.ts):
   * the read every generation-checked cache waits for (src/storage/generation-gate.ts).
   */
  readCacheGeneration(): Promise<number>;
  /** One trivial query: rejects when the database does not answer. */
  ping(): Promise<void>;
  /** Runs the pending migrations (migrations/ is the one source of the schema); resolves with their names. */
  migrate(): Promise<string[]>;
  migrationStatus(): Promise<MigrationStatus>;
  /** Closes every connection. */
  close(): Promise<void>;
}
