import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { capturedLogger, schedulerConfig, testScheduler } from './scheduler-fixture.js';
import { requireBuild, spawnProcess, waitUntil, type SpawnedProcess } from '../support/spawned-process.js';

const workerScript = 'test/scheduler/fixtures/worker-process.mjs';

describe.each(databaseKinds)('a worker killed mid-job on %s', (kind) => {
  let t: TestDatabase;
  let doomed: SpawnedProcess | undefined;
  beforeAll(requireBuild);
  beforeEach(async () => {
    t = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await doomed?.stop();
    await t.destroy();
  });

  it('another worker picks the job up once the dead worker’s lease expires, and runs it to success', async () => {
    doomed = spawnProcess(process.execPath, [workerScript], {
      IDP_TEST_DATABASE: JSON.stringify(t.config),
      IDP_TEST_SCHEDULER: JSON.stringify({
        instanceId: 'doomed',
        lockTtlMs: 1500,
        pollIntervalMs: 50,
        cleanupCron: '0 2 * * *',
      }),
    });
    await doomed.waitForLine((l) => l.event === 'fixture.ready');
    const { logger, lines } = capturedLogger();
    const heir = testScheduler(t.tx, {
      clock: systemClock,
      logger,
      concurrency: 1,
      config: schedulerConfig({ instanceId: 'heir', lockTtlMs: 1500, pollIntervalMs: 50 }),
    });
    const id = await heir.enqueue('noop', { delayMs: 1500 });
    const doomedClaim = await doomed.waitForLine((l) => l.jobId === id && l.to === 'running');
    // Let the heartbeat renew the lease at least once, so the test sees renewal, then kill -9 mid-job.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const beforeKill = await jobs.findById(t.tx, id);
    expect(beforeKill).toMatchObject({ state: 'running', leaseOwner: 'doomed', attempts: 1 });
    expect(beforeKill!.leaseExpiresAt!).toBeGreaterThan((doomedClaim.time as number) + 1500 + 200);
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    heir.worker.start();
    try {
      await waitUntil(async () => (await jobs.findById(t.tx, id))?.state === 'succeeded', 20_000, 'job succeeded');
    } finally {
      await heir.stop({ graceMs: 5000 });
    }
    const claimed = lines.find((l) => l.jobId === id && l.to === 'running')!;
    expect(claimed.time as number).toBeGreaterThanOrEqual(beforeKill!.leaseExpiresAt!);
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'succeeded',
      attempts: 2,
      lastError: 'lease of doomed expired',
    });
    expect(doomed.lines.filter((l) => l.jobId === id && l.to === 'succeeded')).toEqual([]);
  });
});
