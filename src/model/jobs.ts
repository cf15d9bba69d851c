/** docs/scheduler.md, "Background jobs": succeeded and failed are terminal. */
export type BackgroundJobState = 'pending' | 'running' | 'succeeded' | 'failed';

export interface BackgroundJobRecord {
  id: string;
  kind: string;
  /** The JSON payload, parsed. */
  payload: unknown;
  state: BackgroundJobState;
  /** Claims so far, the running one included. */
  attempts: number;
  maxAttempts: number;
  /** A pending job is not claimed before this time. */
  runAt: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

/** Who holds a claimed job: completion and renewal are conditional on both. */
export interface JobLease {
  id: string;
  owner: string;
  /** The attempt number the claim produced; a later claim of the same job has a higher one. */
  attempt: number;
}

/** One scheduled job's lease and last run, shared by every instance. */
export interface SchedulerLeaseRecord {
  name: string;
  owner: string | null;
  expiresAt: number | null;
  lastTickAt: number;
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastError: string | null;
  updatedAt: number;
}
