import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { Storage } from '../storage/repositories.js';
import { applyConfig } from './apply-config.js';
import { ApplyConflictError } from './apply-conflict-error.js';
import { recordConfigDrift } from './config-drift.js';

/**
 * Plans the config against the database and records whether it differs.
 * A config that collides with database-managed objects cannot be applied
 * as it is: that is drift too. Returns the number of pending changes (the
 * job's summary), or -1 for a collision.
 */
export async function checkConfigDrift(storage: Storage, config: Config, clock: Clock): Promise<number> {
  const changes = await applyConfig(storage, config, { dryRun: true, clock }).then(
    ({ plan }) => plan.changes.length,
    (error: unknown) => {
      if (error instanceof ApplyConflictError) return -1;
      throw error;
    },
  );
  await recordConfigDrift(storage.db, storage.repositories.settings, changes, clock.now());
  return changes;
}
