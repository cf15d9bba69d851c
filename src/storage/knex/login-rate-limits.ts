import type { LoginRateLimitCounter, LoginRateLimitRepository } from '../repositories.js';

interface CounterRow {
  key: string;
  failures: number;
  window_started_at: number;
}

export const knexLoginRateLimitRepository: LoginRateLimitRepository = {
  async find(tx, keys) {
    const rows = (await tx('login_rate_limits').whereIn('key', keys)) as CounterRow[];
    return rows.map(
      (row): LoginRateLimitCounter => ({ key: row.key, failures: Number(row.failures), windowStartedAt: Number(row.window_started_at) }),
    );
  },
  async recordFailure(tx, keys, now, windowStartsAfter) {
    // One statement per key: concurrent failures from several instances add
    // up instead of overwriting each other (both engines support ON CONFLICT).
    for (const key of keys) {
      await tx('login_rate_limits')
        .insert({ key, failures: 1, window_started_at: now })
        .onConflict('key')
        .merge({
          failures: tx.raw('CASE WHEN login_rate_limits.window_started_at < ? THEN 1 ELSE login_rate_limits.failures + 1 END', [windowStartsAfter]),
          window_started_at: tx.raw('CASE WHEN login_rate_limits.window_started_at < ? THEN ? ELSE login_rate_limits.window_started_at END', [
            windowStartsAfter,
            now,
          ]),
        });
    }
  },
  async clear(tx, key) {
    await tx('login_rate_limits').where({ key }).delete();
  },
  async deleteStale(tx, before) {
    return tx('login_rate_limits').where('window_started_at', '<', before).delete();
  },
};
