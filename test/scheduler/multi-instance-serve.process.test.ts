import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { systemClock } from '../../src/clock.js';
import { createJobQueue } from '../../src/scheduler/job-queue.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { checkExactlyOnce } from './check-exactly-once.js';
import {
  killDuringJob,
  requireBuild,
  spawnProcess,
  waitUntil,
  type SpawnedProcess,
} from '../support/spawned-process.js';

const lockTtlMs = 1500;

/**
 * Production shape (docs/architecture.md, "Several instances"): three `idp serve` processes in database
 * mode on one PostgreSQL, sharing one config file (instance_id empty, so each
 * process generates its own), with an every-second cleanup.
 */
describe('three idp serve processes sharing PostgreSQL (scheduler.mode database)', () => {
  let t: TestDatabase;
  let dir: string;
  let servers: SpawnedProcess[] = [];
  beforeAll(requireBuild);
  beforeEach(async () => {
    t = await createTestDatabase('postgres');
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-serve-sched-'));
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
    await t.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'runs each cleanup tick on exactly one instance and each of 1,000 jobs to success once, with one instance SIGKILLed mid-run',
    { timeout: 180_000 },
    async () => {
      const configFile = path.join(dir, 'idp.yaml');
      await writeFile(
        configFile,
        [
          'server:',
          '  base_url: http://127.0.0.1:8080',
          'database:',
          '  client: postgres',
          `  url: ${JSON.stringify(t.config.url)}`,
          'security:',
          `  secret: ${'x'.repeat(40)}`,
          'logging:',
          '  level: info',
          '  format: json',
          'scheduler:',
          '  mode: database',
          "  cleanup_cron: '* * * * * *'",
          '  poll_interval_ms: 100',
          `  lock_ttl_ms: ${lockTtlMs}`,
          '  background_retry_delay_ms: 100',
          "  instance_id: ''",
          '',
        ].join('\n'),
      );
      servers = [0, 1, 2].map(() =>
        spawnProcess(process.execPath, ['bin/idp', 'serve', '-c', configFile, '--host', '127.0.0.1', '--port', '0'], {
          NO_COLOR: '1',
        }),
      );
      const started = await Promise.all(
        servers.map((s) => s.waitForLine((l) => l.event === 'scheduler.started', 60_000)),
      );
      const instanceIds = started.map((l) => l.instanceId as string);
      expect(new Set(instanceIds).size).toBe(3);
      expect(started.every((l) => l.mode === 'database')).toBe(true);
      // Each is a real server on its own port.
      const urls = await Promise.all(
        servers.map(async (s) => (await s.waitForLine((l) => typeof l.url === 'string')).url as string),
      );
      for (const url of urls) expect((await fetch(`${url}/api/health`)).status).toBe(200);

      const queue = createJobQueue({
        db: t.tx,
        jobs,
        clock: systemClock,
        config: { backgroundMaxAttempts: 3, instanceId: 'test' },
        logger: pino({ level: 'silent' }),
      });
      const ids: string[] = [];
      for (let i = 0; i < 1000; i += 1) ids.push(await queue.enqueue('noop', { delayMs: 20, note: `job ${i}` }));

      const victim = servers[1];
      await waitUntil(
        async () => victim.lines.filter((l) => l.event === 'job.transition' && l.to === 'succeeded').length >= 50,
        60_000,
        'the victim ran 50 jobs',
      );
      await killDuringJob(victim, 20);
      await waitUntil(
        async () => (await jobs.countByState(t.tx)).succeeded === 1000,
        120_000,
        'all 1,000 jobs succeeded',
      );
      await new Promise((resolve) => setTimeout(resolve, 2500)); // a few ticks with two instances left

      const finalJobs = await jobs.list(t.tx, { limit: 10_000 });
      expect(finalJobs.map((j) => j.id).sort()).toEqual([...ids].sort());
      const report = checkExactlyOnce(
        servers.map((s) => s.lines),
        finalJobs,
        instanceIds[1],
        lockTtlMs,
      );
      expect(report.problems).toEqual([]);
      expect(report.interruptedByKill).toBeGreaterThan(0);
      expect(report.ticks).toBeGreaterThanOrEqual(5);
      expect(await jobs.countByState(t.tx)).toEqual({ pending: 0, running: 0, succeeded: 1000, failed: 0 });

      // The survivors shut down gracefully on SIGTERM.
      await Promise.all([servers[0].stop(), servers[2].stop()]);
      expect(await servers[0].exited).toBe(0);
      expect(servers[0].lines.some((l) => l.event === 'scheduler.stopped')).toBe(true);
    },
  );
});
