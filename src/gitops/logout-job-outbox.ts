import { randomUUID } from 'node:crypto';
import type { LogoutOutbox } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { BackgroundJobRepository } from '../storage/repositories.js';

/**
 * The Logout Tokens of users removed by apply: `backchannel.logout` jobs
 * written as rows in apply's transaction, since `idp apply` runs without a
 * scheduler of its own; a serving instance's worker sends them (the row is
 * the one src/scheduler/job-queue.ts writes, docs/scheduler.md).
 */
export function logoutJobOutbox(deps: {
  jobs: BackgroundJobRepository;
  maxAttempts: number;
  clock: Clock;
}): LogoutOutbox {
  return {
    async queue(tx, job) {
      const now = deps.clock.now();
      await deps.jobs.insert(tx, {
        id: randomUUID(),
        kind: 'backchannel.logout',
        payload: job,
        state: 'pending',
        attempts: 0,
        maxAttempts: deps.maxAttempts,
        runAt: now,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
        finishedAt: null,
      });
    },
  };
}
