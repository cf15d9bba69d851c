import type { Config } from '../config/types.js';
import { systemClock, type Clock } from '../clock.js';
import type { Storage } from '../storage/repositories.js';
import { FINGERPRINT_KEY_SETTING, generateFingerprintKey } from './fingerprint-secret.js';
import { gitopsStoreOf } from './gitops-store.js';
import { planChanges } from './plan-changes.js';
import type { Plan } from './plan.js';
import { writePlan, type ApplyProgress } from './write-plan.js';

export interface ApplyOptions {
  /** Plan only: nothing is locked or written. */
  dryRun?: boolean;
  clock?: Clock;
  /** Called after each batch of created rows (for a progress display). */
  onProgress?: (progress: ApplyProgress) => void;
}

export interface ApplyResult {
  plan: Plan;
  /** False for a dry run and when there was nothing to change. */
  applied: boolean;
}

/**
 * Reconciles the database with the config (DESIGN.md 5), in ONE
 * transaction:
 *
 * 1. take the apply lock (concurrent applies run one after the other; the
 *    second one plans against the first one's result: "No changes.");
 * 2. make sure the identity-provider fingerprint key exists;
 * 3. plan: read everything once, check collisions with database-managed
 *    objects (ApplyConflictError before any write), compare in memory;
 * 4. write the plan in batches, revoking grants of removed users and clients.
 *
 * Any error rolls the whole transaction back: nothing is half-applied.
 */
export async function applyConfig(storage: Storage, config: Config, options: ApplyOptions = {}): Promise<ApplyResult> {
  const store = gitopsStoreOf(storage);
  const clock = options.clock ?? systemClock;
  if (options.dryRun) return storage.transaction(async (tx) => ({ plan: await planChanges(tx, config, store), applied: false }));
  return storage.transaction(async (tx) => {
    await store.takeApplyLock(tx);
    const now = clock.now();
    if (config.identityProviders.length > 0) {
      await store.settings.getOrCreate(tx, FINGERPRINT_KEY_SETTING, generateFingerprintKey, now);
    }
    const plan = await planChanges(tx, config, store);
    if (plan.changes.length === 0) return { plan, applied: false };
    await writePlan(tx, plan.writes, now, store, options.onProgress ?? (() => {}));
    return { plan, applied: true };
  });
}
