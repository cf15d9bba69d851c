import type { Logger } from 'pino';
import type { JobKind, JobPayloads } from './job-payloads.js';

/** What a handler learns about the run it is part of. */
export interface JobContext {
  jobId: string;
  /** 1 for the first run, up to maxAttempts. */
  attempt: number;
  maxAttempts: number;
  /**
   * Aborted when the worker stops waiting for the handler: the lease was
   * lost to another instance, or the process is shutting down. A handler
   * doing long work should stop when it fires.
   */
  signal: AbortSignal;
  logger: Logger;
}

/** Runs one job. Resolving means succeeded; throwing means this attempt failed (retried while attempts remain). */
export type JobHandler<K extends JobKind> = (payload: JobPayloads[K], context: JobContext) => Promise<void>;
