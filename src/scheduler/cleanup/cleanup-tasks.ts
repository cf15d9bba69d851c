import type { Config } from '../../config/types.js';
import type { SchedulerRepositories } from '../scheduler-repositories.js';
import { batchedTask } from './batched-task.js';
import type { CleanupTask } from './cleanup-task.js';

/** Rows of `table` whose `expires_at` has passed, through the batched delete of ExpiredRowsRepository. */
function expiredAt(repositories: SchedulerRepositories, table: string): CleanupTask {
  return batchedTask(table, (tx, now, limit) =>
    repositories.expiredRows.deleteBatch(tx, { table, column: 'expires_at', before: now, limit }),
  );
}

/**
 * The cleanup job's tasks, one per table, in the order they run. Each
 * deletes in batches of cleanup.batch_size.
 */
export function cleanupTasks(config: Config, repositories: SchedulerRepositories): CleanupTask[] {
  const retentionMs = config.scheduler.backgroundRetentionMs;
  const sessionIdleMs = config.security.sessionIdleTtlSeconds * 1000;
  const eventsRetentionMs = config.cleanup.eventsRetentionDays * 24 * 60 * 60 * 1000;
  const rateLimitWindowMs = config.security.loginRateLimit.windowSeconds * 1000;
  const graceMs = config.accountDeletion.gracePeriodDays * 86_400_000;
  return [
    // account_deletion.grace_period_days: a database-managed user soft-deleted longer ago is erased, its sub
    // kept as a tombstone (docs/http-api.md "Erasure").
    batchedTask('users_erased', (tx, now, limit) =>
      repositories.users.eraseDeleted(tx, { before: now - graceMs, limit, now }),
    ),
    batchedTask('sessions', (tx, now, limit) => repositories.sessions.deleteExpired(tx, now, limit)),
    // A session unused for longer than the idle limit is refused (src/accounts/sessions.ts) even before it expires.
    batchedTask('sessions_idle', (tx, now, limit) =>
      repositories.expiredRows.deleteBatch(tx, {
        table: 'sessions',
        column: 'last_seen_at',
        before: now - sessionIdleMs,
        limit,
      }),
    ),
    // A counter whose window ended no longer limits anyone: the next failure starts a new window.
    batchedTask('login_rate_limits', (tx, now, limit) =>
      repositories.expiredRows.deleteBatch(tx, {
        table: 'login_rate_limits',
        column: 'window_started_at',
        before: now - rateLimitWindowMs,
        limit,
      }),
    ),
    // Rotated refresh tokens are kept until they expire: presenting one again is a reuse that revokes its grant.
    expiredAt(repositories, 'refresh_tokens'),
    // RFC 7009: a revoked JWT access token's id matters only until the token's own exp.
    expiredAt(repositories, 'revoked_access_tokens'),
    // A grant's expires_at is the latest expiry of anything issued under it (migrations/0003_tokens.js).
    expiredAt(repositories, 'grants'),
    // A WebAuthn ceremony not answered within its 5 minutes cannot be finished any more.
    expiredAt(repositories, 'webauthn_challenges'),
    // Codes are kept until they expire even when consumed: a replay inside the lifetime must still be recognised.
    batchedTask('authorization_codes', (tx, now, limit) =>
      repositories.authorizationCodes.deleteExpired(tx, now, limit),
    ),
    // A mailed link's token, used or not, means nothing once it has expired.
    batchedTask('link_tokens', (tx, now, limit) => repositories.linkTokens.deleteExpired(tx, now, limit)),
    // An upstream sign-in not finished within its few minutes can no longer be (src/federation).
    expiredAt(repositories, 'upstream_states'),
    // SPEC 2.5 background_retention_ms: only succeeded and failed jobs; pending and running are never deleted.
    batchedTask('background_jobs', (tx, now, limit) =>
      repositories.backgroundJobs.deleteTerminalBefore(tx, now - retentionMs, limit),
    ),
    batchedTask('events', (tx, now, limit) => repositories.events.deleteBefore(tx, now - eventsRetentionMs, limit)),
  ];
}
