/**
 * The scheduler (docs/scheduler.md: the scheduler group, the background job states).
 *
 * Background jobs live in the database in both modes: `enqueue(kind, payload)`
 * adds a pending row; each instance's worker claims due jobs atomically,
 * runs the kind's handler under a renewed lease, and records succeeded,
 * a retry (pending again after background_retry_delay_ms) or failed (after
 * background_max_attempts). Scheduled jobs ({ name, schedule, run }) such as
 * cleanup fire in-process with croner (mode croner) or once per tick across
 * instances through lease rows (mode database). createScheduler ties it all
 * together for the composition root; docs/scheduler.md has the decisions.
 */
export { createScheduler, allScheduledJobs, type Scheduler, type SchedulerDeps } from './create-scheduler.js';
export type { JobHandler, JobContext } from './job-handler.js';
export type { JobKind, JobPayloads } from './job-payloads.js';
export type { EnqueueOptions, JobQueue } from './job-queue.js';
export type { ScheduledJob, ScheduledJobDeps } from './scheduled-job.js';
export type { SchedulerRepositories } from './scheduler-repositories.js';
