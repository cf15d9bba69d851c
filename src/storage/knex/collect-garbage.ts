import type { Knex } from 'knex';
import type { GarbageCollector } from '../repositories.js';
import { knexAuthorizationCodeRepository } from './authorization-codes.js';
import { knexBackgroundJobRepository } from './background-jobs.js';
import { isPostgres } from './connect.js';
import { knexDeviceCodeRepository } from './device-codes.js';
import { knexEventRepository } from './events.js';
import { knexLinkTokenRepository } from './link-tokens.js';
import { onKnex, txOf } from './on-knex.js';
import { knexPushedAuthorizationRequestRepository } from './pushed-authorization-requests.js';
import { knexSessionRepository } from './sessions.js';
import { knexUserRepository } from './users.js';

/** Deletes one batch of at most `limit` rows; resolves with how many went. */
type DeleteBatch = (tx: Knex, limit: number) => Promise<number>;

/**
 * Up to `limit` rows of `table` whose `column` is before `before`. Rows are
 * addressed by the engine's physical row id (PostgreSQL `ctid`, SQLite
 * `rowid`), so a batch works on any table whatever its primary key.
 */
function olderThan(table: string, column: string, before: number): DeleteBatch {
  return async (tx, limit) => {
    const rowId = isPostgres(tx) ? 'ctid' : 'rowid';
    const batch = tx(table).select(rowId).where(column, '<', before).limit(limit);
    return tx(table).whereIn(rowId, batch).del();
  };
}

/** Repeats a batch until one comes back short: the total deleted. */
async function untilShort(tx: Knex, limit: number, deleteBatch: DeleteBatch): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(tx, limit);
    total += deleted;
    if (deleted < limit) return total;
  }
}

export const knexGarbageCollector = onKnex<GarbageCollector>({
  async collect(tx, now, policy) {
    const tasks: [name: string, deleteBatch: DeleteBatch][] = [
      // A database-managed user soft-deleted longer ago is erased, its sub kept as a tombstone (docs/http-api.md "Erasure").
      [
        'users_erased',
        (k, limit) => knexUserRepository.eraseDeleted(txOf(k), { before: now - policy.erasureGraceMs, limit, now }),
      ],
      ['sessions', (k, limit) => knexSessionRepository.deleteExpired(txOf(k), now, limit)],
      // A session unused for longer than the idle limit is refused (src/accounts/sessions.ts) even before it expires.
      ['sessions_idle', olderThan('sessions', 'last_seen_at', now - policy.sessionIdleMs)],
      // A counter whose window ended no longer limits anyone: the next failure starts a new window.
      ['login_rate_limits', olderThan('login_rate_limits', 'window_started_at', now - policy.rateLimitWindowMs)],
      // Rotated refresh tokens are kept until they expire: presenting one again is a reuse that revokes its grant.
      ['refresh_tokens', olderThan('refresh_tokens', 'expires_at', now)],
      // RFC 7009: a revoked JWT access token's id matters only until the token's own exp.
      ['revoked_access_tokens', olderThan('revoked_access_tokens', 'expires_at', now)],
      // A grant's expires_at is the latest expiry of anything issued under it (migrations/0003_tokens.js).
      ['grants', olderThan('grants', 'expires_at', now)],
      // A WebAuthn ceremony not answered within its 5 minutes cannot be finished any more.
      ['webauthn_challenges', olderThan('webauthn_challenges', 'expires_at', now)],
      // Codes are kept until they expire even when consumed: a replay inside the lifetime must still be recognised.
      ['authorization_codes', (k, limit) => knexAuthorizationCodeRepository.deleteExpired(txOf(k), now, limit)],
      // A pushed authorization request, claimed or not, means nothing once it has expired (RFC 9126).
      [
        'pushed_authorization_requests',
        (k, limit) => knexPushedAuthorizationRequestRepository.deleteExpired(txOf(k), now, limit),
      ],
      // A device code, spent or not, is kept until it expires, so that a replay is recognised until then.
      ['device_codes', (k, limit) => knexDeviceCodeRepository.deleteExpired(txOf(k), now, limit)],
      // A mailed link's token, used or not, means nothing once it has expired.
      ['link_tokens', (k, limit) => knexLinkTokenRepository.deleteExpired(txOf(k), now, limit)],
      // An upstream sign-in not finished within its few minutes can no longer be (src/federation).
      ['upstream_states', olderThan('upstream_states', 'expires_at', now)],
      // Only succeeded and failed jobs; pending and running ones are never deleted.
      [
        'background_jobs',
        (k, limit) => knexBackgroundJobRepository.deleteTerminalBefore(txOf(k), now - policy.jobRetentionMs, limit),
      ],
      ['events', (k, limit) => knexEventRepository.deleteBefore(txOf(k), now - policy.eventRetentionMs, limit)],
    ];
    const deleted: Record<string, number> = {};
    for (const [name, deleteBatch] of tasks) deleted[name] = await untilShort(tx, policy.batchSize, deleteBatch);
    return deleted;
  },
});
