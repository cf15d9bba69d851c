import type { ScheduledJob } from '../scheduled-job.js';
import { cleanupTasks } from './cleanup-tasks.js';

/**
 * The built-in cleanup (SPEC 2.5 scheduler.cleanup_cron): runs every
 * cleanup task with one clock reading, and returns the rows deleted per table.
 */
export function cleanupJob(schedule: string): ScheduledJob {
  return {
    name: 'cleanup',
    schedule,
    async run({ db, clock, config, repositories, logger }) {
      const now = clock.now();
      const deleted: Record<string, number> = {};
      for (const task of cleanupTasks(config, repositories)) {
        deleted[task.name] = await task.run(db, now, config.cleanup.batchSize);
      }
      logger.info({ event: 'cleanup.finished', deleted }, 'cleanup finished');
      return deleted;
    },
  };
}
