// A benchmark worker process: the real scheduler (dist/) in database mode,
// running `noop` jobs until SIGTERM. Environment: BENCH_DATABASE_URL, BENCH_INSTANCE.
import { pino } from 'pino';
import { openStorage } from '../../../dist/app.js';
import { createScheduler } from '../../../dist/scheduler/index.js';
import { systemClock } from '../../../dist/clock.js';

const storage = openStorage({
  client: 'postgres',
  filename: '',
  url: process.env.BENCH_DATABASE_URL,
  pool: { min: 1, max: 10 },
});
const scheduler = createScheduler({
  db: storage.db,
  clock: systemClock,
  logger: pino({ level: 'silent' }),
  repositories: storage.repositories,
  collectGarbage: storage.collectGarbage,
  config: {
    scheduler: {
      enabled: true,
      mode: 'database',
      cleanupCron: '0 2 * * *',
      pollIntervalMs: 50,
      lockTtlMs: 60_000,
      backgroundRetryDelayMs: 1000,
      backgroundMaxAttempts: 3,
      backgroundRetentionMs: 604_800_000,
      instanceId: process.env.BENCH_INSTANCE,
    },
    security: { sessionIdleTtlSeconds: 3600, loginRateLimit: { maxAttempts: 5, windowSeconds: 900 } },
    cleanup: { enabled: false, batchSize: 1000, eventsRetentionDays: 90 },
  },
});
await storage.ping();
scheduler.start();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await scheduler.stop({ graceMs: 5000 });
  await storage.close();
  process.exit(0);
});
