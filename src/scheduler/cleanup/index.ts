/**
 * Cleanup: the built-in scheduled job that deletes expired rows. Flow:
 * cleanupJob (scheduled on scheduler.cleanup_cron, or `idp jobs run cleanup`)
 * → cleanupTasks (one per table) → each task deletes in batches of
 * cleanup.batch_size through its table's repository.
 */
export { cleanupJob } from './cleanup-job.js';
export { cleanupTasks } from './cleanup-tasks.js';
export type { CleanupTask } from './cleanup-task.js';
