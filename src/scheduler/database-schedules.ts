import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SchedulerConfig } from '../config/types.js';
import type { SchedulerLeaseRepository, Tx } from '../storage/repositories.js';
import type { ScheduleRunner } from './croner-schedules.js';
import { describeError } from './describe-error.js';
import { createIdleWaiter } from './idle-waiter.js';
import { latestTick, parseCron } from './latest-tick.js';
import type { ScheduledJob } from './scheduled-job.js';

export interface DatabaseSchedules extends ScheduleRunner {
  /** One poll: claims and starts every due tick this instance wins; returns the started runs. */
  pollOnce(): Promise<Promise<unknown>[]>;
}

export interface DatabaseSchedulesDeps {
  db: Tx;
  leases: SchedulerLeaseRepository;
  clock: Clock;
  logger: Logger;
  config: Pick<SchedulerConfig, 'instanceId' | 'pollIntervalMs' | 'lockTtlMs'>;
}

/**
 * database mode (docs/scheduler.md, scheduler.mode): every instance polls every
 * poll_interval_ms; for each schedule it computes the latest cron tick after
 * the one recorded in the schedule's lease row and tries to claim it with one
 * conditional update (SchedulerLeaseRepository.claimTick). One instance wins
 * each tick; it holds the lease (renewed while the run lasts, expiry
 * lock_ttl_ms) and releases it when done. Ticks that pass while a run is
 * going are folded into the next run; ticks missed while every instance was
 * down are run once, not once each.
 */
export function databaseSchedules(
  jobs: ScheduledJob[],
  run: (job: ScheduledJob, tick: number) => Promise<string | null>,
  deps: DatabaseSchedulesDeps,
): DatabaseSchedules {
  const { db, leases, clock, logger, config } = deps;
  const owner = config.instanceId;
  const scheduled = jobs.map((job) => ({ job, cron: parseCron(job.schedule) }));
  const running = new Map<string, Promise<unknown>>();
  const idle = createIdleWaiter();
  let loop: Promise<void> | null = null;
  let stopping = false;

  async function pollOnce(): Promise<Promise<unknown>[]> {
    const started: Promise<unknown>[] = [];
    for (const { job, cron } of scheduled) {
      if (running.has(job.name)) continue;
      const now = clock.now();
      const lease = await leases.ensure(db, job.name, now);
      const tick = latestTick(cron, lease.lastTickAt, now);
      if (tick === null) continue;
      const won = await leases.claimTick(db, { name: job.name, owner, tick, now, expiresAt: now + config.lockTtlMs });
      if (!won) continue;
      logger.info(
        { event: 'schedule.tick_claimed', schedule: job.name, tick, instanceId: owner },
        `claimed tick ${new Date(tick).toISOString()} of ${job.name}`,
      );
      const done = runHoldingLease(job, tick).finally(() => running.delete(job.name));
      running.set(job.name, done);
      started.push(done);
    }
    return started;
  }

  async function runHoldingLease(job: ScheduledJob, tick: number): Promise<void> {
    const heartbeat = setInterval(
      () => {
        const now = clock.now();
        leases
          .renew(db, job.name, owner, now + config.lockTtlMs, now)
          .catch((error: unknown) =>
            logger.warn(
              { event: 'schedule.heartbeat_failed', schedule: job.name, err: describeError(error) },
              'schedule lease renewal failed',
            ),
          );
      },
      Math.max(1, Math.floor(config.lockTtlMs / 3)),
    );
    try {
      const error = await run(job, tick);
      await leases.finish(db, job.name, owner, clock.now(), error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    pollOnce,
    start() {
      if (loop) return;
      stopping = false;
      loop = (async () => {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() sets it while this loop awaits
        while (!stopping) {
          try {
            // eslint-disable-next-line @typescript-eslint/no-floating-promises -- the jobs it starts are kept in `running`, where stop() waits for them
            await pollOnce();
          } catch (error) {
            logger.error(
              { event: 'schedule.poll_failed', instanceId: owner, err: describeError(error) },
              'scheduler poll failed',
            );
          }
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() sets it while this loop awaits
          if (!stopping) await idle.wait(config.pollIntervalMs);
        }
      })();
    },
    async stop(graceMs) {
      stopping = true;
      idle.wakeAll();
      await loop;
      loop = null;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all(running.values()).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (finished) return;
      // Give the schedule back now rather than when the lease expires; the tick stays claimed (it is not re-run).
      for (const name of running.keys()) await leases.finish(db, name, owner, clock.now(), 'interrupted by shutdown');
    },
  };
}
