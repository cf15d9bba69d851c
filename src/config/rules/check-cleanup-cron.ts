import { Cron } from 'croner';
import { error, type ConfigRule } from './config-rule.js';

/**
 * The cleanup schedule must be an expression croner (the scheduler) accepts
 * and that ever fires. croner's own reasons quote the expression, which may
 * be an expanded secret; ours say what a valid one looks like.
 */
export const checkCleanupCron: ConfigRule = (config) => {
  const expression = config.scheduler.cleanup_cron;
  if (typeof expression !== 'string') return [];
  const path = ['scheduler', 'cleanup_cron'];
  try {
    const job = new Cron(expression, { paused: true });
    const next = job.nextRun();
    job.stop();
    return next === null
      ? [error(path, 'is a cron expression that never fires (a date that does not exist, such as 31 February?)')]
      : [];
  } catch {
    return [
      error(
        path,
        'is not a valid cron expression: write 5 fields (minute hour day month weekday, such as "0 2 * * *"), 6 with seconds first, or a nickname such as @daily',
      ),
    ];
  }
};
