import { isPostgres } from './connect.js';
import type { Knex } from 'knex';

/**
 * Serialises `idp apply` across processes; call it first thing inside the
 * apply transaction. The lock is released when the transaction ends.
 *
 * - PostgreSQL: a transaction-scoped advisory lock; a second apply waits
 *   here, then reads the first one's committed rows (READ COMMITTED).
 * - SQLite: knex opens transactions with a plain (deferred) BEGIN. A
 *   deferred transaction that reads and later writes can fail with
 *   SQLITE_BUSY when another writer committed in between (the lock upgrade
 *   problem). An UPDATE that matches no row still takes the write lock, so
 *   issuing one before any read gives BEGIN IMMEDIATE semantics: a second
 *   apply waits on busy_timeout and starts only after the first commits.
 */
export async function takeApplyLock(tx: Knex): Promise<void> {
  if (isPostgres(tx)) {
    await tx.raw(`SELECT pg_advisory_xact_lock(hashtext('idp:apply'))`);
    return;
  }
  await tx.raw(`UPDATE settings SET value = value WHERE key = 'gitops.apply_lock'`);
}
