import type { LoginRateLimitRepository } from '../repositories.js';
import type { LoginRateLimitCounter } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface CounterRow {
  key: string;
  failures: DbInteger;
  window_started_at: DbInteger;
}

const counterFromRow = (row: CounterRow): LoginRateLimitCounter => ({
  key: row.key,
  failures: Number(row.failures),
  windowStartedAt: Number(row.window_started_at),
});

export const knexLoginRateLimitRepository = onKnex<LoginRateLimitRepository>({
  async find(tx, keys) {
    const rows = (await tx('login_rate_limits').whereIn('key', keys)) as CounterRow[];
    return rows.map(counterFromRow);
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
      .returning(['key', 'failures', 'window_started_at'])) as CounterRow[];
    return counterFromRow(row);
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
