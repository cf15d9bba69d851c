import type {
  AuthorizationCodeRepository,
  BackgroundJobRepository,
  EventRepository,
  ExpiredRowsRepository,
  LinkTokenRepository,
  SchedulerLeaseRepository,
  SessionRepository,
  UserRepository,
} from '../storage/repositories.js';

/** The storage the scheduler and its cleanup job use; the Storage's repositories (src/storage/repositories.ts) satisfy it. */
export interface SchedulerRepositories {
  backgroundJobs: BackgroundJobRepository;
  schedulerLeases: SchedulerLeaseRepository;
  expiredRows: ExpiredRowsRepository;
  authorizationCodes: AuthorizationCodeRepository;
  sessions: SessionRepository;
  linkTokens: LinkTokenRepository;
  events: EventRepository;
  users: UserRepository;
}
