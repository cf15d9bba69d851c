import { Cron } from 'croner';
import type { ScheduledJob } from './scheduled-job.js';

export interface ScheduleRunner {
  start(): void;
  /** Stops firing ticks, then waits up to `graceMs` for runs in progress. */
  stop(graceMs: number): Promise<void>;
}

/**
 * croner mode (docs/scheduler.md, scheduler.mode): every instance fires its own
 * schedules in-process; right for a single instance. `protect` skips a tick
 * while the previous run of the same job is still going.
 */
export function cronerSchedules(
  jobs: ScheduledJob[],
  run: (job: ScheduledJob, tick: number) => Promise<unknown>,
): ScheduleRunner {
  const crons: Cron[] = [];
  const running = new Set<Promise<unknown>>();
  return {
    start() {
      for (const job of jobs) {
        crons.push(
          new Cron(job.schedule, { timezone: 'UTC', protect: true }, async (self: Cron) => {
            const tick = self.currentRun()?.getTime() ?? Date.now();
            const done = run(job, tick);
            running.add(done);
            await done;
            running.delete(done);
          }),
        );
      }
    },
    async stop(graceMs) {
      for (const cron of crons.splice(0)) cron.stop();
      await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    },
  };
}
