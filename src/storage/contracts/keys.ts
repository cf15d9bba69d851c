/** Signing keys (src/keys). */
import type { SigningAlgorithm, SigningKeyRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface SigningKeyRepository {
  /** Keys still published (retire_at null or in the future), newest generation first. */
  listLive(tx: Tx, now: number): Promise<SigningKeyRecord[]>;
  /** Every key, newest generation first (`idp keys list`). */
  listAll(tx: Tx): Promise<SigningKeyRecord[]>;
  /**
   * Inserts the key unless its generation is taken (another instance won the
   * race to create or rotate): one `INSERT … ON CONFLICT (generation) DO
   * NOTHING`. True when this key was inserted.
   */
  insertIfGenerationFree(tx: Tx, key: SigningKeyRecord): Promise<boolean>;
  /**
   * Schedules every key of `alg` below `generation` that has no retire time
   * yet to retire at `retireAt`: a rotation replaces the key of one
   * algorithm, the others keep signing.
   */
  retireOlderThan(tx: Tx, alg: SigningAlgorithm, generation: number, retireAt: number): Promise<void>;
}
