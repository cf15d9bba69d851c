import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { Storage } from '../storage/repositories.js';
import { ApplyConflictError } from './apply-conflict-error.js';
import { recordConfigDrift } from './config-drift.js';
import { gitopsStoreOf } from './gitops-store.js';
import { planChanges } from './plan-changes.js';

/**
 * Plans the config against the database and records whether it differs.
 * A config that collides with database-managed objects cannot be applied
 * as it is: that is drift too. Returns the number of pending changes (the
 * job's summary), or -1 for a collision.
 */
export async function checkConfigDrift(storage: Storage, config: Config, clock: Clock): Promise<number> {
  // The plan of `idp diff`, but statement by statement rather than in one read transaction: on SQLite a
  // transaction would hold the only connection for the whole plan every few minutes, stalling requests.
  // A plan that straddles a concurrent apply may be wrong once; the apply resets the record, the next check
  // sees the truth.
  const changes = await planChanges(storage.db, config, gitopsStoreOf(storage, config, clock), clock.now()).then(
    (plan) => plan.changes.length,
    (error: unknown) => {
      if (error instanceof ApplyConflictError) return -1;
      throw error;
    },
  );
  await recordConfigDrift(storage.db, storage.repositories.settings, changes, clock.now());
  return changes;
}
