import type { Config } from '../../config/types.js';
import type { SchedulerRepositories } from '../scheduler-repositories.js';
import { batchedTask } from './batched-task.js';
import type { CleanupTask } from './cleanup-task.js';

/**
 * The cleanup job's tasks, one per table, in the order they run. Each
 * deletes in batches of cleanup.batch_size.
 */
export function cleanupTasks(config: Config, repositories: SchedulerRepositories): CleanupTask[] {
  const retentionMs = config.scheduler.backgroundRetentionMs;
  return [
    // Codes are kept until they expire even when consumed: a replay inside the lifetime must still be recognised.
    batchedTask('authorization_codes', (tx, now, limit) => repositories.authorizationCodes.deleteExpired(tx, now, limit)),
    // SPEC 2.5 background_retention_ms: only succeeded and failed jobs; pending and running are never deleted.
    batchedTask('background_jobs', (tx, now, limit) => repositories.backgroundJobs.deleteTerminalBefore(tx, now - retentionMs, limit)),
  ];
}
