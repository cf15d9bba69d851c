import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { CollectGarbage, Tx } from '../storage/repositories.js';
import { cleanupJob } from './cleanup/cleanup-job.js';
import { configDriftJob } from './config-drift-job.js';
import { cronerSchedules, type ScheduleRunner } from './croner-schedules.js';
import { databaseSchedules } from './database-schedules.js';
import type { JobHandler } from './job-handler.js';
import { createJobHandlerRegistry } from './job-handler-registry.js';
import type { JobKind } from './job-payloads.js';
import { createJobQueue, type JobQueue } from './job-queue.js';
import { createJobWorker, type JobWorker } from './job-worker.js';
import { noopHandler } from './noop-handler.js';
import { runScheduledJob } from './run-scheduled-job.js';
import type { ScheduledJob, ScheduledJobDeps } from './scheduled-job.js';
import type { SchedulerRepositories } from './scheduler-repositories.js';

export interface SchedulerDeps {
  db: Tx;
  config: Config;
  clock: Clock;
  logger: Logger;
  repositories: SchedulerRepositories;
  /** The cleanup job's deletions: Storage.collectGarbage. */
  collectGarbage: CollectGarbage;
  /** The config-drift job's plan: src/gitops checkConfigDrift over this storage and config. */
  checkConfigDrift: () => Promise<number>;
  /** Background jobs run at once by this process; default 4. */
  concurrency?: number;
}

export interface Scheduler extends JobQueue {
  registerHandler<K extends JobKind>(kind: K, handler: JobHandler<K>): void;
  /** The scheduled jobs of this config (cleanup, when cleanup.enabled; config-drift). */
  scheduledJobs: ScheduledJob[];
  /** Runs a scheduled job once, now, in this process (`idp jobs run <name>`); throws on an unknown name. */
  runNow(name: string): Promise<Record<string, number>>;
  worker: JobWorker;
  /** Starts the worker and the schedules (nothing when scheduler.enabled is false). */
  start(): void;
  /** Graceful shutdown: stop claiming, let running work finish for up to `graceMs` (default 10 s), then release leases. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Every scheduled job, whether or not this config schedules it: `idp jobs run` can run any of them. */
export function allScheduledJobs(config: Config): ScheduledJob[] {
  return [cleanupJob(config.scheduler.cleanupCron), configDriftJob];
}

/**
 * The scheduler of one process: the background job queue and worker (both
 * modes keep jobs in the database) and the scheduled jobs, fired in-process
 * by croner or through lease rows in database mode (docs/scheduler.md).
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { config, logger } = deps;
  const settings = config.scheduler;
  const handlers = createJobHandlerRegistry();
  handlers.register('noop', noopHandler);
  const worker = createJobWorker({
    db: deps.db,
    jobs: deps.repositories.backgroundJobs,
    handlers,
    clock: deps.clock,
    logger,
    config: settings,
    concurrency: deps.concurrency,
  });
  const queue = createJobQueue({
    db: deps.db,
    jobs: deps.repositories.backgroundJobs,
    clock: deps.clock,
    config: settings,
    logger,
    onEnqueue: () => worker.wake(),
  });
  const jobDeps: ScheduledJobDeps = {
    db: deps.db,
    clock: deps.clock,
    logger,
    config,
    repositories: deps.repositories,
    collectGarbage: deps.collectGarbage,
    checkConfigDrift: deps.checkConfigDrift,
  };
  const scheduledJobs = [...(config.cleanup.enabled ? [cleanupJob(settings.cleanupCron)] : []), configDriftJob];
  const run = (job: ScheduledJob, tick: number) => runScheduledJob(job, jobDeps, tick, settings.instanceId, logger);
  let schedules: ScheduleRunner | null = null;

  return {
    enqueue: queue.enqueue.bind(queue),
    registerHandler: (kind, handler) => handlers.register(kind, handler),
    scheduledJobs,
    worker,
    async runNow(name) {
      const job = allScheduledJobs(config).find((j) => j.name === name);
      if (!job) throw new Error(`unknown scheduled job "${name}"`);
      return job.run(jobDeps);
    },
    start() {
      if (!settings.enabled) {
        logger.info(
          { event: 'scheduler.disabled' },
          'scheduler disabled (scheduler.enabled is false): background jobs wait in the database',
        );
        return;
      }
      if (schedules) return;
      schedules =
        settings.mode === 'database'
          ? databaseSchedules(scheduledJobs, run, {
              db: deps.db,
              leases: deps.repositories.schedulerLeases,
              clock: deps.clock,
              logger,
              config: settings,
            })
          : cronerSchedules(scheduledJobs, run);
      schedules.start();
      worker.start();
      logger.info(
        {
          event: 'scheduler.started',
          mode: settings.mode,
          instanceId: settings.instanceId,
          schedules: scheduledJobs.map((j) => `${j.name} ${j.schedule}`),
        },
        'scheduler started',
      );
    },
    async stop(options = {}) {
      const graceMs = options.graceMs ?? 10_000;
      const current = schedules;
      schedules = null;
      await Promise.all([current?.stop(graceMs), worker.stop({ graceMs })]);
      logger.info({ event: 'scheduler.stopped', instanceId: settings.instanceId }, 'scheduler stopped');
    },
  };
}
