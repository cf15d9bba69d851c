import { knexAuthorizationCodeRepository } from './authorization-codes.js';
import { knexBackgroundJobRepository } from './background-jobs.js';
import { knexExpiredRowsRepository } from './expired-rows.js';
import { knexSchedulerLeaseRepository } from './scheduler-leases.js';
import { knexSessionRepository } from './sessions.js';

/** The knex repositories the scheduler needs (SchedulerRepositories), for the composition root and `idp jobs`. */
export const knexSchedulerRepositories = {
  backgroundJobs: knexBackgroundJobRepository,
  schedulerLeases: knexSchedulerLeaseRepository,
  expiredRows: knexExpiredRowsRepository,
  authorizationCodes: knexAuthorizationCodeRepository,
  sessions: knexSessionRepository,
};
