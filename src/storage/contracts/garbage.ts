/** What the cleanup job deletes, and when (src/scheduler/cleanup). */
import type { Tx } from './tx.js';

/** How long rows outlive their use, in milliseconds, from the config (cleanup, scheduler, security, account_deletion). */
export interface GarbagePolicy {
  /** Rows per delete statement (cleanup.batch_size): short statements never hold a long lock against sign-ins. */
  batchSize: number;
  /** A database-managed user soft-deleted longer ago is erased (account_deletion.grace_period_days). */
  erasureGraceMs: number;
  /** A session unused for longer is refused even before it expires (security.session_idle_ttl_seconds). */
  sessionIdleMs: number;
  /** A login rate-limit window that ended longer ago limits no one (security.login_rate_limit.window_seconds). */
  rateLimitWindowMs: number;
  /** Succeeded and failed background jobs are kept this long (scheduler.background_retention_ms). */
  jobRetentionMs: number;
  /** Audit events are kept this long (cleanup.events_retention_days). */
  eventRetentionMs: number;
}

/**
 * Deletes every row that has outlived its use at `now` under `policy`, in
 * batches of `policy.batchSize` (each its own statement, outside any
 * transaction), table by table, and resolves with how many rows went per
 * kind (users_erased, sessions, sessions_idle, login_rate_limits,
 * refresh_tokens, revoked_access_tokens, grants, webauthn_challenges,
 * authorization_codes, pushed_authorization_requests, link_tokens, upstream_states, background_jobs,
 * events). Storage.collectGarbage; the cleanup job calls it.
 */
export type CollectGarbage = (now: number, policy: GarbagePolicy) => Promise<Record<string, number>>;

/** The engine's side of CollectGarbage, on a given unit of work. */
export interface GarbageCollector {
  collect(tx: Tx, now: number, policy: GarbagePolicy): Promise<Record<string, number>>;
}
