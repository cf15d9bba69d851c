import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SchedulerConfig } from '../config/types.js';
import type { BackgroundJobRepository, Tx } from '../storage/repositories.js';
import type { JobKind, JobPayloads } from './job-payloads.js';

export interface EnqueueOptions {
  /** Epoch ms before which the job is not run; default now. */
  runAt?: number;
  /** Default scheduler.background_max_attempts. */
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction (the job exists only if it commits). */
  tx?: Tx;
}

export interface JobQueue {
  /** Adds a pending job and returns its id. */
  enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], options?: EnqueueOptions): Promise<string>;
}

export interface JobQueueDeps {
  db: Tx;
  jobs: BackgroundJobRepository;
  clock: Clock;
  config: Pick<SchedulerConfig, 'backgroundMaxAttempts' | 'instanceId'>;
  logger: Logger;
  /** Called after each enqueue, so that a local idle worker wakes at once instead of at its next poll. */
  onEnqueue?: () => void;
}

export function createJobQueue(deps: JobQueueDeps): JobQueue {
  return {
    async enqueue(kind, payload, options = {}) {
      const now = deps.clock.now();
      const maxAttempts = options.maxAttempts ?? deps.config.backgroundMaxAttempts;
      if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
        throw new Error(`maxAttempts must be an integer >= 1, got ${maxAttempts}`);
      const id = randomUUID();
      await deps.jobs.insert(options.tx ?? deps.db, {
        id,
        kind,
        payload,
        state: 'pending',
        attempts: 0,
        maxAttempts,
        runAt: options.runAt ?? now,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
        finishedAt: null,
      });
      deps.logger.info(
        { event: 'job.transition', jobId: id, kind, from: null, to: 'pending', instanceId: deps.config.instanceId },
        `job ${kind} enqueued`,
      );
      deps.onEnqueue?.();
      return id;
    },
  };
}
