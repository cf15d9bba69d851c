import type { Tx } from '../storage/repositories.js';
import type { MailJob } from './mail-job.js';

/**
 * Where services put mail: a background job of the scheduler, inserted in
 * the caller's transaction so that the mail exists exactly when the change
 * that caused it commits. src/scheduler/wire-jobs.ts implements it with the job queue.
 */
export interface MailOutbox {
  queue(tx: Tx, job: MailJob): Promise<void>;
}
