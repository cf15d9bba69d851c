import { Cron } from 'croner';
import { error, type ConfigRule } from './config-rule.js';

/** The cleanup schedule must be an expression croner (the scheduler) accepts and that ever fires. */
export const checkCleanupCron: ConfigRule = (config) => {
  const expression = config.scheduler.cleanup_cron;
  if (typeof expression !== 'string') return [];
  const path = ['scheduler', 'cleanup_cron'];
  try {
    const job = new Cron(expression, { paused: true });
    const next = job.nextRun();
    job.stop();
    return next === null ? [error(path, `cron expression "${expression}" never fires`)] : [];
  } catch (cause) {
    const reason = (cause as Error).message.replace(/^CronPattern: /, '');
    return [error(path, `is not a valid cron expression: ${reason}`)];
  }
};
