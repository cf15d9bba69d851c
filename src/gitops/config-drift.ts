import type { SettingsRepository, Tx } from '../storage/repositories.js';

/**
 * Drift: the database no longer holds what the config file declares (an
 * apply of another version of the file, `serve --no-apply`, a hand edit).
 * The scheduled `config-drift` job plans the running config against the
 * database as `idp diff` does and writes the answer into a settings row, so
 * that every instance (its `idp_config_drift` gauge, the admin console)
 * reads the last answer instead of planning on each scrape. Apply writes
 * the time of its last change beside it (docs/operations.md, "Metrics").
 */
export const CONFIG_DRIFT_SETTING = 'gitops.drift';
export const CONFIG_APPLIED_AT_SETTING = 'gitops.applied_at';

export interface ConfigDrift {
  /** Whether the last check found changes to apply; null before any check. */
  drift: boolean | null;
  /** How many changes the last check found (-1: a collision, which apply refuses); null before any check. */
  changes: number | null;
  /** When the last check ran (ms since the epoch), or null. */
  checkedAt: number | null;
  /** When an apply last changed the database (ms since the epoch), or null when none has since this setting exists. */
  appliedAt: number | null;
}

interface StoredDrift {
  drift: boolean;
  changes: number;
  checked_at: number;
}

/** Records a drift check's answer: `changes` pending (-1: a collision, which apply refuses), found at `now`. */
export async function recordConfigDrift(
  tx: Tx,
  settings: SettingsRepository,
  changes: number,
  now: number,
): Promise<void> {
  const stored: StoredDrift = { drift: changes !== 0, changes, checked_at: now };
  await settings.set(tx, CONFIG_DRIFT_SETTING, JSON.stringify(stored), now);
}

/** The last drift check and apply, as any instance recorded them. */
export async function readConfigDrift(db: Tx, settings: SettingsRepository): Promise<ConfigDrift> {
  const [drift, appliedAt] = await Promise.all([
    settings.get(db, CONFIG_DRIFT_SETTING),
    settings.get(db, CONFIG_APPLIED_AT_SETTING),
  ]);
  const stored = drift === null ? null : (JSON.parse(drift) as StoredDrift);
  return {
    drift: stored?.drift ?? null,
    changes: stored?.changes ?? null,
    checkedAt: stored?.checked_at ?? null,
    appliedAt: appliedAt === null ? null : Number(appliedAt),
  };
}
