import type { Config } from '../../config/types.js';
import type { GarbagePolicy } from '../../storage/repositories.js';
import type { ScheduledJob } from '../scheduled-job.js';

const day = 86_400_000;

/** How long rows outlive their use, from the config. */
export function garbagePolicy(config: Config): GarbagePolicy {
  return {
    batchSize: config.cleanup.batchSize,
    erasureGraceMs: config.accountDeletion.gracePeriodDays * day,
    sessionIdleMs: config.security.sessionIdleTtlSeconds * 1000,
    rateLimitWindowMs: config.security.loginRateLimit.windowSeconds * 1000,
    jobRetentionMs: config.scheduler.backgroundRetentionMs,
    eventRetentionMs: config.cleanup.eventsRetentionDays * day,
  };
}

/**
 * The built-in cleanup (scheduler.cleanup_cron): deletes, with one clock
 * reading, every row that has outlived its use under the config's policy,
 * and returns the rows deleted per table.
 */
export function cleanupJob(schedule: string): ScheduledJob {
  return {
    name: 'cleanup',
    schedule,
    async run({ clock, config, collectGarbage, logger }) {
      const deleted = await collectGarbage(clock.now(), garbagePolicy(config));
      logger.info({ event: 'cleanup.finished', deleted }, 'cleanup finished');
      return deleted;
    },
  };
}
