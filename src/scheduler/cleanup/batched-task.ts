import type { Tx } from '../../storage/repositories.js';
import type { CleanupTask } from './cleanup-task.js';

/**
 * A cleanup task from a repository's batch delete: repeats it until a batch
 * comes back short, and returns the total deleted.
 */
export function batchedTask(
  name: string,
  deleteBatch: (tx: Tx, now: number, limit: number) => Promise<number>,
): CleanupTask {
  return {
    name,
    async run(tx, now, batchSize) {
      let total = 0;
      for (;;) {
        const deleted = await deleteBatch(tx, now, batchSize);
        total += deleted;
        if (deleted < batchSize) return total;
      }
    },
  };
}
