import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { CollectGarbage, Tx } from '../storage/repositories.js';
import type { SchedulerRepositories } from './scheduler-repositories.js';

/** What a scheduled job may use: passed in, never imported (CONTRIBUTING.md, "How the code is written", 11). */
export interface ScheduledJobDeps {
  db: Tx;
  clock: Clock;
  logger: Logger;
  config: Config;
  repositories: SchedulerRepositories;
  collectGarbage: CollectGarbage;
  /** Plans the config against the database and records the drift (src/gitops); resolves with the pending changes, -1 for a collision. */
  checkConfigDrift: () => Promise<number>;
}

/**
 * A job run on a schedule (CONTRIBUTING.md, "How the code is written", 13: jobs are data). The scheduler
 * runs it on `schedule`; `idp jobs run <name>` runs it once from the CLI.
 * `run` returns a summary of counts (for the log line and the CLI).
 */
export interface ScheduledJob {
  name: string;
  /** A cron expression (5 fields, or 6 with seconds first), evaluated in UTC. */
  schedule: string;
  run(deps: ScheduledJobDeps): Promise<Record<string, number>>;
}
