import type { Logger } from 'pino';
import { describeError } from './describe-error.js';
import type { ScheduledJob, ScheduledJobDeps } from './scheduled-job.js';

/**
 * Runs one scheduled job for one tick with a log line before and after
 * (event "schedule.run"). Never throws: a failed run is logged and returned
 * as its error, and the schedule goes on.
 */
export async function runScheduledJob(
  job: ScheduledJob,
  deps: ScheduledJobDeps,
  tick: number,
  instanceId: string,
  logger: Logger,
): Promise<string | null> {
  const started = deps.clock.now();
  const fields = { event: 'schedule.run', schedule: job.name, tick, instanceId };
  logger.info({ ...fields, phase: 'started' }, `scheduled job ${job.name} started`);
  try {
    const summary = await job.run(deps);
    logger.info(
      { ...fields, phase: 'finished', durationMs: deps.clock.now() - started, summary },
      `scheduled job ${job.name} finished`,
    );
    return null;
  } catch (error) {
    const message = describeError(error);
    logger.error(
      { ...fields, phase: 'failed', durationMs: deps.clock.now() - started, error: message },
      `scheduled job ${job.name} failed`,
    );
    return message;
  }
}
