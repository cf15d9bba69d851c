import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SchedulerConfig } from '../config/types.js';
import type { BackgroundJobRepository, Tx } from '../storage/repositories.js';
import type { BackgroundJobRecord, JobLease } from '../model/index.js';
import type { JobHandlerRegistry } from './job-handler-registry.js';
import { describeError } from './describe-error.js';
import { createIdleWaiter } from './idle-waiter.js';
import { logJobTransition } from './log-job-transition.js';

export type JobOutcome = 'succeeded' | 'retry' | 'failed' | 'lease_lost' | 'released';

export interface JobRunResult {
  job: BackgroundJobRecord;
  outcome: JobOutcome;
  error: string | null;
}

export interface JobWorker {
  /** Starts `concurrency` loops that claim and run jobs, polling every poll_interval_ms when idle. */
  start(): void;
  /** Claims and runs one due job now; null when none is due. Tests and `idp jobs` drive the queue through it. */
  runNext(): Promise<JobRunResult | null>;
  /** Wakes idle loops (a job was just enqueued in this process). */
  wake(): void;
  /**
   * Graceful shutdown: stops claiming, waits up to `graceMs` for running
   * jobs, then aborts the rest and releases their leases so that another
   * instance runs them (the interrupted attempt is not counted).
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export interface JobWorkerDeps {
  db: Tx;
  jobs: BackgroundJobRepository;
  handlers: JobHandlerRegistry;
  clock: Clock;
  logger: Logger;
  config: Pick<SchedulerConfig, 'instanceId' | 'lockTtlMs' | 'pollIntervalMs' | 'backgroundRetryDelayMs'>;
  /** Jobs this process runs at once; default 4. */
  concurrency?: number;
  /** How often a running job's lease is renewed; default lock_ttl_ms / 3. */
  heartbeatMs?: number;
}

interface InFlight {
  lease: JobLease;
  controller: AbortController;
  released: boolean;
  done: Promise<unknown>;
}

/**
 * The background job worker. Each run: fail jobs whose worker died on their
 * last attempt → claim one job (atomic, see BackgroundJobRepository.claim) →
 * run its handler while a heartbeat renews the lease → record the outcome,
 * conditional on still holding the lease (same owner, same attempt), so a
 * worker that lost its lease never overwrites the new owner's state.
 */
export function createJobWorker(deps: JobWorkerDeps): JobWorker {
  const { db, jobs, clock, logger, config } = deps;
  const owner = config.instanceId;
  const heartbeatMs = deps.heartbeatMs ?? Math.max(1, Math.floor(config.lockTtlMs / 3));
  const idle = createIdleWaiter();
  const inFlight = new Map<string, InFlight>();
  const loops: Promise<void>[] = [];
  let stopping = false;
  let lastSweep = -Infinity;

  async function runNext(): Promise<JobRunResult | null> {
    const now = clock.now();
    // Once per poll interval, not per claim: it is a table scan, and dead workers are rare.
    if (now - lastSweep >= config.pollIntervalMs) {
      lastSweep = now;
      for (const job of await jobs.failExpiredExhausted(db, now)) {
        logJobTransition(logger, job, { from: 'running', to: 'failed', instanceId: owner, error: job.lastError });
      }
    }
    const job = await jobs.claim(db, {
      owner,
      now,
      leaseExpiresAt: now + config.lockTtlMs,
      kinds: deps.handlers.kinds(),
    });
    if (!job) return null;
    logJobTransition(logger, job, {
      to: 'running',
      instanceId: owner,
      leaseExpiresAt: job.leaseExpiresAt ?? undefined,
    });
    return run(job);
  }

  async function run(job: BackgroundJobRecord): Promise<JobRunResult> {
    const lease: JobLease = { id: job.id, owner, attempt: job.attempts };
    const controller = new AbortController();
    const started = clock.now();
    let lost = false;
    const heartbeat = setInterval(() => {
      const now = clock.now();
      jobs.renewLease(db, lease, now, now + config.lockTtlMs).then(
        (held) => {
          if (held || lost) return;
          lost = true;
          controller.abort(new Error('lease lost'));
        },
        (error: unknown) =>
          logger.warn(
            { event: 'job.heartbeat_failed', jobId: job.id, err: describeError(error) },
            'job lease renewal failed',
          ),
      );
    }, heartbeatMs);
    const entry: InFlight = { lease, controller, released: false, done: Promise.resolve() };
    const done = callHandler(job, controller.signal);
    entry.done = done;
    inFlight.set(job.id, entry);
    const error = await done;
    clearInterval(heartbeat);
    inFlight.delete(job.id);
    if (entry.released) return { job, outcome: 'released', error };
    return record(job, lease, error, clock.now() - started);
  }

  async function callHandler(job: BackgroundJobRecord, signal: AbortSignal): Promise<string | null> {
    const handler = deps.handlers.get(job.kind);
    if (!handler) return `no handler is registered for job kind "${job.kind}"`;
    try {
      await handler(job.payload as never, {
        jobId: job.id,
        attempt: job.attempts,
        maxAttempts: job.maxAttempts,
        signal,
        logger: logger.child({ jobId: job.id, kind: job.kind }),
      });
      return null;
    } catch (error) {
      return describeError(error);
    }
  }

  async function record(
    job: BackgroundJobRecord,
    lease: JobLease,
    error: string | null,
    durationMs: number,
  ): Promise<JobRunResult> {
    const now = clock.now();
    const base = { instanceId: owner, durationMs };
    if (error === null) {
      if (await jobs.markSucceeded(db, lease, now)) {
        logJobTransition(logger, job, { ...base, from: 'running', to: 'succeeded' });
        return { job, outcome: 'succeeded', error };
      }
    } else if (job.attempts < job.maxAttempts) {
      const runAt = now + config.backgroundRetryDelayMs;
      if (await jobs.markRetry(db, lease, now, runAt, error)) {
        logJobTransition(logger, job, { ...base, from: 'running', to: 'pending', error, retryAt: runAt });
        return { job, outcome: 'retry', error };
      }
    } else if (await jobs.markFailed(db, lease, now, error)) {
      logJobTransition(logger, job, { ...base, from: 'running', to: 'failed', error });
      return { job, outcome: 'failed', error };
    }
    // Another instance re-claimed the job after our lease expired: its run owns the state now.
    logger.warn(
      { event: 'job.lease_lost', jobId: job.id, kind: job.kind, attempt: job.attempts, instanceId: owner, error },
      `job ${job.kind} lease lost; outcome discarded`,
    );
    return { job, outcome: 'lease_lost', error };
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let result: JobRunResult | null = null;
      try {
        result = await runNext();
      } catch (error) {
        logger.error(
          { event: 'job.worker_error', instanceId: owner, err: describeError(error) },
          'background job worker error',
        );
      }
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() sets it while this loop awaits
      if (result === null && !stopping) await idle.wait(config.pollIntervalMs);
    }
  }

  return {
    start() {
      if (loops.length > 0) return;
      stopping = false;
      for (let i = 0; i < (deps.concurrency ?? 4); i += 1) loops.push(loop());
    },
    runNext,
    wake: () => idle.wakeAll(),
    async stop(options = {}) {
      stopping = true;
      idle.wakeAll();
      const graceMs = options.graceMs ?? 10_000;
      const settled = Promise.all(loops);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) await releaseAll();
      loops.length = 0;
    },
  };

  async function releaseAll(): Promise<void> {
    for (const entry of inFlight.values()) {
      entry.released = true;
      entry.controller.abort(new Error('shutting down'));
      const released = await jobs.release(db, entry.lease, clock.now());
      logger.info(
        {
          event: 'job.transition',
          jobId: entry.lease.id,
          attempt: entry.lease.attempt,
          from: 'running',
          to: released ? 'pending' : null,
          instanceId: owner,
        },
        released ? 'job released at shutdown' : 'job lease already lost at shutdown',
      );
    }
  }
}
