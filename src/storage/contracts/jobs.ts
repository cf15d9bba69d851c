/** Scheduler: background jobs and schedule leases. */
import type { BackgroundJobRecord, BackgroundJobState, JobLease, SchedulerLeaseRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

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
