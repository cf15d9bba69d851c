import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { knexSchedulerLeaseRepository as leases } from '../../src/storage/knex/scheduler-leases.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { capturedLogger, schedulerConfig, testScheduler } from './scheduler-fixture.js';
import { waitUntil } from '../support/spawned-process.js';

describe.each(databaseKinds)('createScheduler start/stop on %s', (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  it('croner mode fires the cleanup in-process on cleanup_cron and runs enqueued jobs at once', async () => {
    const { logger, lines } = capturedLogger();
    const scheduler = testScheduler(t.tx, {
      clock: systemClock,
      logger,
      config: schedulerConfig({ mode: 'croner', cleanupCron: '* * * * * *', pollIntervalMs: 60_000 }),
    });
    scheduler.start();
    try {
      await waitUntil(
        async () => lines.filter((l) => l.event === 'schedule.run' && l.phase === 'finished').length >= 2,
        5000,
        'two cleanup runs',
      );
      // The poll interval is a minute: only the local wake-up on enqueue can run this job quickly.
      const id = await scheduler.enqueue('noop', {});
      await waitUntil(async () => (await jobs.findById(t.tx, id))?.state === 'succeeded', 3000, 'noop succeeded');
    } finally {
      await scheduler.stop();
    }
    const runs = lines.filter((l) => l.event === 'schedule.run' && l.phase === 'finished');
    expect(runs[0]).toMatchObject({
      schedule: 'cleanup',
      instanceId: 'instance-a',
      summary: { background_jobs: 0, authorization_codes: 0 },
    });
    expect(new Set(runs.map((l) => l.tick)).size).toBe(runs.length);
    expect(await leases.list(t.tx)).toEqual([]); // croner mode keeps no lease rows
    expect(lines.at(-1)).toMatchObject({ event: 'scheduler.stopped' });
  });

  it('database mode records its schedule in a lease row', async () => {
    const { logger, lines } = capturedLogger();
    const scheduler = testScheduler(t.tx, {
      clock: systemClock,
      logger,
      config: schedulerConfig({ mode: 'database', cleanupCron: '* * * * * *', pollIntervalMs: 50 }),
    });
    scheduler.start();
    try {
      await waitUntil(
        async () => lines.some((l) => l.event === 'schedule.run' && l.phase === 'finished'),
        5000,
        'a cleanup run',
      );
    } finally {
      await scheduler.stop();
    }
    const claimed = lines.find((l) => l.event === 'schedule.tick_claimed')!;
    const row = await leases.find(t.tx, 'cleanup');
    expect(row).toMatchObject({ owner: null, lastError: null });
    expect(row!.lastTickAt).toBeGreaterThanOrEqual(claimed.tick as number);
  });

  it('scheduler.enabled false starts nothing; enqueued jobs wait in the database', async () => {
    const { logger, lines } = capturedLogger();
    const scheduler = testScheduler(t.tx, {
      clock: systemClock,
      logger,
      config: schedulerConfig({ enabled: false, cleanupCron: '* * * * * *', pollIntervalMs: 20 }),
    });
    scheduler.start();
    const id = await scheduler.enqueue('noop', {});
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await scheduler.stop();
    expect((await jobs.findById(t.tx, id))?.state).toBe('pending');
    expect(lines.some((l) => l.event === 'schedule.run')).toBe(false);
    expect(lines[0]).toMatchObject({ event: 'scheduler.disabled' });
  });

  it('cleanup.enabled false schedules no cleanup (config-drift only), but it can still be run on demand', async () => {
    const config = {
      ...schedulerConfig({ cleanupCron: '* * * * * *' }),
      cleanup: { enabled: false, batchSize: 100, eventsRetentionDays: 90 },
    };
    const scheduler = testScheduler(t.tx, { config });
    expect(scheduler.scheduledJobs.map((job) => job.name)).toEqual(['config-drift']);
    expect(await scheduler.runNow('cleanup')).toMatchObject({ background_jobs: 0 });
  });
});
