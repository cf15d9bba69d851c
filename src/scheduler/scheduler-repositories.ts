import type { BackgroundJobRepository, SchedulerLeaseRepository } from '../storage/repositories.js';

/** The storage the scheduler and its cleanup job use; the Storage's repositories (src/storage/repositories.ts) satisfy it. */
export interface SchedulerRepositories {
  backgroundJobs: BackgroundJobRepository;
  schedulerLeases: SchedulerLeaseRepository;
}
