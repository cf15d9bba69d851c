import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createAppMetrics } from '../../src/operations/app-metrics.js';
import type { ConfigDrift } from '../../src/gitops/index.js';

const jobs = { pending: 1, running: 0, succeeded: 2, failed: 0 };

describe('createAppMetrics', () => {
  it('reads the config drift once per scrape for both of its gauges, and again at the next scrape', async () => {
    let reads = 0;
    let drift: ConfigDrift = { drift: true, changes: 2, checkedAt: 4_000, appliedAt: 5_000 };
    const metrics = createAppMetrics({
      countJobs: () => Promise.resolve(jobs),
      configDrift: () => {
        reads++;
        return Promise.resolve(drift);
      },
      logger: pino({ level: 'silent' }),
    });
    const first = await metrics.registry.metrics();
    expect(first).toMatch(/^idp_config_drift 1$/m);
    expect(first).toMatch(/^idp_config_applied_timestamp_seconds 5$/m);
    expect(reads).toBe(1);
    drift = { drift: false, changes: 0, checkedAt: 8_000, appliedAt: 9_000 };
    const second = await metrics.registry.metrics();
    expect(second).toMatch(/^idp_config_drift 0$/m);
    expect(second).toMatch(/^idp_config_applied_timestamp_seconds 9$/m);
    expect(reads).toBe(2);
  });
});
