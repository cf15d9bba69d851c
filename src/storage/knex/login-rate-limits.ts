import type { LoginRateLimitRepository } from '../repositories.js';
import type { LoginRateLimitCounter } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, integer, text, timestamp, type Row } from './define-table.js';

const counters = defineTable<LoginRateLimitCounter>('login_rate_limits', {
  key: ['key', text()],
  failures: ['failures', integer],
  windowStartedAt: ['window_started_at', timestamp],
});

export const knexLoginRateLimitRepository = onKnex<LoginRateLimitRepository>({
  async find(tx, keys) {
    const rows = (await tx('login_rate_limits').whereIn('key', keys)) as Row[];
    return rows.map(counters.fromRow);
  },
  async countAttempt(tx, key, now, windowStartsAfter) {
    // One statement with RETURNING: concurrent attempts from several
    // instances add up, and each learns the count its own increment made.
    const [row] = (await tx('login_rate_limits')
      .insert({ key, failures: 1, window_started_at: now })
      .onConflict('key')
      .merge({
        failures: tx.raw(
          'CASE WHEN login_rate_limits.window_started_at < ? THEN 1 ELSE login_rate_limits.failures + 1 END',
          [windowStartsAfter],
        ),
        window_started_at: tx.raw(
          'CASE WHEN login_rate_limits.window_started_at < ? THEN ? ELSE login_rate_limits.window_started_at END',
          [windowStartsAfter, now],
        ),
      })
      .returning(counters.columns)) as Row[];
    return counters.fromRow(row);
  },
  async release(tx, key, countedAt) {
    await tx('login_rate_limits')
      .where({ key })
      .andWhere('failures', '>', 0)
      .andWhere('window_started_at', '<=', countedAt)
      .update({ failures: tx.raw('failures - 1') });
  },
  async clear(tx, key) {
    return (await tx('login_rate_limits').where({ key }).delete()) > 0;
  },
  async deleteStale(tx, before) {
    return tx('login_rate_limits').where('window_started_at', '<', before).delete();
  },
});
