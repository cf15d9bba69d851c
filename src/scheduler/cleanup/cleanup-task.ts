import type { Tx } from '../../storage/repositories.js';

/**
 * One table's cleanup: deletes at most `batchSize` expired rows per
 * statement, repeating until none is left, and returns how many it deleted.
 * Small batches keep each statement short, so a large backlog never holds a
 * long lock against sign-ins.
 */
export interface CleanupTask {
  name: string;
  run(tx: Tx, now: number, batchSize: number): Promise<number>;
}
