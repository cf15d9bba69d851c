import type { Logger } from 'pino';
import type { BackgroundJobRecord, BackgroundJobState } from '../model/index.js';

export interface TransitionDetails {
  from?: BackgroundJobState | null;
  to: BackgroundJobState;
  instanceId: string;
  error?: string | null;
  durationMs?: number;
  retryAt?: number;
  leaseExpiresAt?: number;
}

/** One structured line per job state change (event "job.transition"): what `grep`, dashboards and the tests read. */
export function logJobTransition(logger: Logger, job: BackgroundJobRecord, details: TransitionDetails): void {
  const fields = {
    event: 'job.transition',
    jobId: job.id,
    kind: job.kind,
    attempt: job.attempts,
    maxAttempts: job.maxAttempts,
    ...details,
  };
  const message = `job ${job.kind} ${details.from ?? '…'} → ${details.to}`;
  if (details.to === 'failed') logger.warn(fields, message);
  else logger.info(fields, message);
}
