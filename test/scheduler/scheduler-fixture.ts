import { pino, type Logger } from 'pino';
import type { Clock } from '../../src/clock.js';
import type { Config, SchedulerConfig } from '../../src/config/types.js';
import { createScheduler, type Scheduler } from '../../src/scheduler/index.js';
import { knexRepositories } from '../../src/storage/knex/open-knex-storage.js';
import { knexGarbageCollector } from '../../src/storage/knex/collect-garbage.js';
import type { Tx } from '../../src/storage/repositories.js';
import { testConfig } from '../support/config-fixture.js';

/** A clock the test moves by hand: retries and lease expiry without sleeping. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}

/** A real pino logger whose JSON lines the test can read. */
export function capturedLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

export function schedulerConfig(overrides: Partial<SchedulerConfig> = {}): Config {
  const base = testConfig();
  return {
    ...base,
    scheduler: {
      enabled: true,
      mode: 'croner',
      cleanupCron: '0 2 * * *',
      pollIntervalMs: 50,
      lockTtlMs: 60_000,
      backgroundRetryDelayMs: 1000,
      backgroundMaxAttempts: 3,
      backgroundRetentionMs: 604_800_000,
      instanceId: 'instance-a',
      ...overrides,
    },
    cleanup: { enabled: true, batchSize: 1000, eventsRetentionDays: 90 },
  };
}

export function testScheduler(
  db: Tx,
  options: { clock?: Clock; config?: Config; logger?: Logger; concurrency?: number } = {},
): Scheduler {
  return createScheduler({
    db,
    config: options.config ?? schedulerConfig(),
    clock: options.clock ?? manualClock(),
    logger: options.logger ?? pino({ level: 'silent' }),
    repositories: knexRepositories,
    collectGarbage: (now, policy) => knexGarbageCollector.collect(db, now, policy),
    // These schedulers have no config file to compare: the drift job finds nothing pending.
    checkConfigDrift: () => Promise.resolve(0),
    concurrency: options.concurrency,
  });
}

// Job kinds that exist only in these tests, typed like real ones.
declare module '../../src/scheduler/job-payloads.js' {
  interface JobPayloads {
    'test.step': { label: string };
  }
}
