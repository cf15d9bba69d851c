import type { ScheduledJob } from './scheduled-job.js';

/**
 * Every 5 minutes: often enough for an alert on `idp_config_drift`, rare
 * enough that a plan over every config-managed table (the cost of
 * `idp diff`) stays small beside the traffic. Fixed, documented in
 * docs/scheduler.md and docs/operations.md.
 */
export const configDriftSchedule = '*/5 * * * *';

/**
 * `config-drift`: plans the config against the database and records the
 * answer for every instance to read (src/gitops/config-drift.ts). The plan
 * is passed in (ScheduledJobDeps.checkConfigDrift), since gitops is no part
 * of the scheduler's layer.
 */
export const configDriftJob: ScheduledJob = {
  name: 'config-drift',
  schedule: configDriftSchedule,
  async run({ checkConfigDrift, logger }) {
    const changes = await checkConfigDrift();
    logger.info({ event: 'config_drift.checked', changes }, 'config drift checked');
    return { changes };
  },
};
