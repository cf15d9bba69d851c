import type { SchedulerLeaseRepository } from '../repositories.js';
import type { SchedulerLeaseRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, nullable, text, timestamp, type Row } from './define-table.js';

const leases = defineTable<SchedulerLeaseRecord>('scheduler_leases', {
  name: ['name', text()],
  owner: ['owner', nullable(text())],
  expiresAt: ['expires_at', nullable(timestamp)],
  lastTickAt: ['last_tick_at', timestamp],
  lastStartedAt: ['last_started_at', nullable(timestamp)],
  lastFinishedAt: ['last_finished_at', nullable(timestamp)],
  lastError: ['last_error', nullable(text())],
  updatedAt: ['updated_at', timestamp],
});

/** One lease row per schedule (migrations/0005_jobs.js): the database mode's guard against running a tick twice. */
export const knexSchedulerLeaseRepository = onKnex<SchedulerLeaseRepository>({
  async ensure(tx, name, now) {
    await tx('scheduler_leases')
      .insert({ name, owner: null, expires_at: null, last_tick_at: now, updated_at: now })
      .onConflict('name')
      .ignore();
    const row = (await tx('scheduler_leases').where({ name }).first()) as Row;
    return leases.fromRow(row);
  },

  async find(tx, name) {
    const row = (await tx('scheduler_leases').where({ name }).first()) as Row | undefined;
    return row ? leases.fromRow(row) : null;
  },

  async list(tx) {
    const rows = (await tx('scheduler_leases').orderBy('name')) as Row[];
    return rows.map(leases.fromRow);
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
