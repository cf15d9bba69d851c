import type { BackgroundJobRepository } from '../repositories.js';
import type { BackgroundJobRecord, BackgroundJobState, JobLease } from '../../model/index.js';
import { isPostgres } from './connect.js';
import type { Knex } from 'knex';
import { onKnex } from './on-knex.js';
import { defineTable, integer, json, nullable, text, timestamp, type Row } from './define-table.js';

const jobs = defineTable<BackgroundJobRecord>('background_jobs', {
  id: ['id', text()],
  kind: ['kind', text()],
  payload: ['payload', json()],
  state: ['state', text()],
  attempts: ['attempts', integer],
  maxAttempts: ['max_attempts', integer],
  runAt: ['run_at', timestamp],
  leaseOwner: ['lease_owner', nullable(text())],
  leaseExpiresAt: ['lease_expires_at', nullable(timestamp)],
  lastError: ['last_error', nullable(text())],
  createdAt: ['created_at', timestamp],
  updatedAt: ['updated_at', timestamp],
  finishedAt: ['finished_at', nullable(timestamp)],
});

const terminalStates: BackgroundJobState[] = ['succeeded', 'failed'];
const allStates: BackgroundJobState[] = ['pending', 'running', 'succeeded', 'failed'];

/** The background job queue on SQLite and PostgreSQL (migrations/0005_jobs.js). */
export const knexBackgroundJobRepository = onKnex<BackgroundJobRepository>({
  async insert(tx, job) {
    // A job without a payload stores JSON null.
    await tx('background_jobs').insert(jobs.toRow({ ...job, payload: job.payload ?? null }));
  },

  async findById(tx, id) {
    const row = (await tx('background_jobs').where({ id }).first()) as Row | undefined;
    return row ? jobs.fromRow(row) : null;
  },

  async list(tx, query) {
    const q = tx('background_jobs').orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    if (query.state) q.where({ state: query.state });
    const rows = (await q.limit(query.limit)) as Row[];
    return rows.map(jobs.fromRow);
  },

  async countByState(tx) {
    const rows = (await tx('background_jobs').select('state').count({ n: '*' }).groupBy('state')) as {
      state: BackgroundJobState;
      n: number | string;
    }[];
    const counts = Object.fromEntries(allStates.map((s) => [s, 0])) as Record<BackgroundJobState, number>;
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  },

  async claim(tx, { owner, now, leaseExpiresAt, kinds }) {
    if (kinds.length === 0) return null;
    // One statement: the inner SELECT picks the job and the UPDATE takes it.
    // PostgreSQL: FOR UPDATE SKIP LOCKED makes concurrent claimers pass over
    // a row another transaction is taking. SQLite: the statement holds the
    // database's single write lock from the SELECT to the UPDATE.
    const lock = isPostgres(tx) ? 'FOR UPDATE SKIP LOCKED' : '';
    const placeholders = kinds.map(() => '?').join(', ');
    const rows = await raw(
      tx,
      `UPDATE background_jobs
          SET state = 'running',
              lease_owner = ?,
              lease_expires_at = ?,
              attempts = attempts + 1,
              updated_at = ?,
              last_error = CASE WHEN state = 'running' THEN 'lease of ' || lease_owner || ' expired' ELSE last_error END
        WHERE id = (
          SELECT id FROM background_jobs
           WHERE kind IN (${placeholders})
             AND ((state = 'pending' AND run_at <= ?)
               OR (state = 'running' AND lease_expires_at <= ? AND attempts < max_attempts))
           ORDER BY run_at, created_at, id
           LIMIT 1
           ${lock})
        RETURNING *`,
      [owner, leaseExpiresAt, now, ...kinds, now, now],
    );
    return rows.length === 0 ? null : jobs.fromRow(rows[0]);
  },

  async failExpiredExhausted(tx, now) {
    const rows = await raw(
      tx,
      `UPDATE background_jobs
          SET state = 'failed',
              last_error = 'lease of ' || lease_owner || ' expired on the last attempt',
              lease_owner = NULL,
              lease_expires_at = NULL,
              finished_at = ?,
              updated_at = ?
        WHERE state = 'running' AND lease_expires_at <= ? AND attempts >= max_attempts
        RETURNING *`,
      [now, now, now],
    );
    return rows.map(jobs.fromRow);
  },

  async renewLease(tx, lease, now, leaseExpiresAt) {
    return (await whereLeased(tx, lease).update({ lease_expires_at: leaseExpiresAt, updated_at: now })) === 1;
  },

  async markSucceeded(tx, lease, now) {
    return (
      (await whereLeased(tx, lease).update({
        state: 'succeeded',
        lease_owner: null,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now,
      })) === 1
    );
  },

  async markRetry(tx, lease, now, runAt, error) {
    return (
      (await whereLeased(tx, lease).update({
        state: 'pending',
        run_at: runAt,
        last_error: error,
        lease_owner: null,
        lease_expires_at: null,
        updated_at: now,
      })) === 1
    );
  },

  async markFailed(tx, lease, now, error) {
    return (
      (await whereLeased(tx, lease).update({
        state: 'failed',
        last_error: error,
        lease_owner: null,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now,
      })) === 1
    );
  },

  async release(tx, lease, now) {
    return (
      (await whereLeased(tx, lease).update({
        state: 'pending',
        attempts: tx.raw('attempts - 1'),
        run_at: now,
        lease_owner: null,
        lease_expires_at: null,
        updated_at: now,
      })) === 1
    );
  },

  async deleteTerminalBefore(tx, before, limit) {
    const batch = tx('background_jobs')
      .select('id')
      .whereIn('state', terminalStates)
      .andWhere('finished_at', '<', before)
      .limit(limit);
    return await tx('background_jobs').whereIn('id', batch).del();
  },
});

/** The job is still running under this very claim: same owner, same attempt. */
function whereLeased(tx: Knex, lease: JobLease) {
  return tx('background_jobs').where({
    id: lease.id,
    state: 'running',
    lease_owner: lease.owner,
    attempts: lease.attempt,
  });
}

async function raw(tx: Knex, sql: string, bindings: unknown[]): Promise<Row[]> {
  const result = (await tx.raw(sql, bindings as never[])) as { rows: Row[] } | Row[];
  return Array.isArray(result) ? result : result.rows;
}
