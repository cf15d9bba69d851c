/** Small key/value facts the server keeps about itself. */
import type { Tx } from './tx.js';

/** Small key/value facts the server keeps about itself (generated keys, last apply). */
export interface SettingsRepository {
  get(tx: Tx, key: string): Promise<string | null>;
  /** Inserts or overwrites. */
  set(tx: Tx, key: string, value: string, now: number): Promise<void>;
  /**
   * Returns the stored value, or stores `create()` and returns it. Atomic:
   * two callers racing on the same key both get the one value that won.
   */
  getOrCreate(tx: Tx, key: string, create: () => string, now: number): Promise<string>;
  delete(tx: Tx, key: string): Promise<void>;
}
