import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { systemClock } from '../../src/clock.js';
import { createJobQueue } from '../../src/scheduler/job-queue.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import {
  killDuringJob,
  requireBuild,
  spawnProcess,
  waitUntil,
  type SpawnedProcess,
} from '../support/spawned-process.js';
import { checkExactlyOnce } from './check-exactly-once.js';

/**
 * Three scheduler processes (src/scheduler through dist/, database mode) on
 * one PostgreSQL database. The same scenario through three `idp serve`
 * processes lives in multi-instance-serve.process.test.ts.
 */
describe('three scheduler processes sharing PostgreSQL', () => {
  let t: TestDatabase;
  let workers: SpawnedProcess[] = [];
  beforeAll(requireBuild);
  beforeEach(async () => {
    t = await createTestDatabase('postgres');
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [];
    await t.destroy();
  });

  it(
    'runs each cleanup tick once and each of 1,000 jobs to success once, surviving a SIGKILL',
    { timeout: 120_000 },
    async () => {
      workers = [1, 2, 3].map((n) =>
        spawnProcess(process.execPath, ['test/scheduler/fixtures/worker-process.mjs'], {
          IDP_TEST_DATABASE: JSON.stringify(t.config),
          IDP_TEST_SCHEDULER: JSON.stringify({
            instanceId: `w${n}`,
            cleanupCron: '* * * * * *',
            pollIntervalMs: 100,
            lockTtlMs: 1500,
          }),
        }),
      );
      await Promise.all(workers.map((w) => w.waitForLine((l) => l.event === 'fixture.ready')));
      const queue = createJobQueue({
        db: t.tx,
        jobs,
        clock: systemClock,
        config: { backgroundMaxAttempts: 3, instanceId: 'test' },
        logger: pino({ level: 'silent' }),
      });
      const ids: string[] = [];
      for (let i = 0; i < 1000; i += 1) ids.push(await queue.enqueue('noop', { delayMs: 20, note: `job ${i}` }));

      // Kill w2 while it is in the middle of jobs.
      await waitUntil(
        async () => workers[1].lines.filter((l) => l.to === 'succeeded').length >= 50,
        60_000,
        'w2 ran 50 jobs',
      );
      await killDuringJob(workers[1], 20);
      await waitUntil(async () => (await jobs.countByState(t.tx)).succeeded === 1000, 90_000, 'all jobs succeeded');
      // Let a few more ticks pass with only two instances left.
      await new Promise((resolve) => setTimeout(resolve, 2500));

      const finalJobs = await jobs.list(t.tx, { limit: 10_000 });
      expect(finalJobs.map((j) => j.id).sort()).toEqual([...ids].sort());
      const report = checkExactlyOnce(
        workers.map((w) => w.lines),
        finalJobs,
        'w2',
        1500,
      );
      expect(report.problems).toEqual([]);
      expect(report.interruptedByKill).toBeGreaterThan(0);
      expect(report.ticks).toBeGreaterThanOrEqual(4);
      expect(await jobs.countByState(t.tx)).toEqual({ pending: 0, running: 0, succeeded: 1000, failed: 0 });
    },
  );
});
