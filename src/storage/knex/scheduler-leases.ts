import type { SchedulerLeaseRepository } from '../repositories.js';
import type { SchedulerLeaseRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface LeaseRow {
  name: string;
  owner: string | null;
  expires_at: DbInteger | null;
  last_tick_at: DbInteger;
  last_started_at: DbInteger | null;
  last_finished_at: DbInteger | null;
  last_error: string | null;
  updated_at: DbInteger;
}

/** One lease row per schedule (migrations/0005_jobs.js): the database mode's guard against running a tick twice. */
export const knexSchedulerLeaseRepository = onKnex<SchedulerLeaseRepository>({
  async ensure(tx, name, now) {
    await tx('scheduler_leases')
      .insert({ name, owner: null, expires_at: null, last_tick_at: now, updated_at: now })
      .onConflict('name')
      .ignore();
    const row = (await tx('scheduler_leases').where({ name }).first()) as LeaseRow;
    return fromRow(row);
  },

  async find(tx, name) {
    const row = (await tx('scheduler_leases').where({ name }).first()) as LeaseRow | undefined;
    return row ? fromRow(row) : null;
  },

  async list(tx) {
    const rows = (await tx('scheduler_leases').orderBy('name')) as LeaseRow[];
    return rows.map(fromRow);
  },

  async claimTick(tx, { name, owner, tick, now, expiresAt }) {
    const updated = await tx('scheduler_leases')
      .where({ name })
      .andWhere('last_tick_at', '<', tick)
      .andWhere((q) => q.whereNull('owner').orWhere('expires_at', '<=', now))
      .update({ owner, expires_at: expiresAt, last_tick_at: tick, last_started_at: now, updated_at: now });
    return updated === 1;
  },

  async renew(tx, name, owner, expiresAt, now) {
    return (
      (await tx('scheduler_leases').where({ name, owner }).update({ expires_at: expiresAt, updated_at: now })) === 1
    );
  },

  async finish(tx, name, owner, now, error) {
    const updated = await tx('scheduler_leases')
      .where({ name, owner })
      .update({ owner: null, expires_at: null, last_finished_at: now, last_error: error, updated_at: now });
    return updated === 1;
  },
});

function fromRow(row: LeaseRow): SchedulerLeaseRecord {
  return {
    name: row.name,
    owner: row.owner,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    lastTickAt: Number(row.last_tick_at),
    lastStartedAt: row.last_started_at === null ? null : Number(row.last_started_at),
    lastFinishedAt: row.last_finished_at === null ? null : Number(row.last_finished_at),
    lastError: row.last_error,
    updatedAt: Number(row.updated_at),
  };
}
