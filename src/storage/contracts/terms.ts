/** Terms, config-managed (src/gitops), and who accepted which version. */
import type { TermAcceptanceRecord, TermRecord, TermVersionRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface TermRepository {
  findById(tx: Tx, id: string): Promise<TermRecord | null>;
  /** Every term, ordered by id. */
  listAll(tx: Tx): Promise<TermRecord[]>;
  /**
   * Inserts or replaces the term and records (id, version) in term_versions:
   * a new version string adds a history row; saving the same version again
   * refreshes that row's content.
   */
  save(tx: Tx, term: TermRecord): Promise<void>;
  /** Removes the term; its version history stays (acceptances refer to it). */
  delete(tx: Tx, id: string): Promise<void>;
  /** History of one term, oldest first. */
  listVersions(tx: Tx, termId: string): Promise<TermVersionRecord[]>;
}

/** Which versions of which terms a user accepted, and when (registration now; the terms API builds on it). */
export interface TermAcceptanceRepository {
  /**
   * Records acceptances. History is never overwritten: accepting a version
   * already recorded for the user changes nothing (`ON CONFLICT DO NOTHING`),
   * so the first acceptance time of a version stands.
   */
  record(tx: Tx, acceptances: TermAcceptanceRecord[]): Promise<void>;
  /** Every acceptance of the user, oldest first (then by term id and version). */
  listBySub(tx: Tx, sub: string): Promise<TermAcceptanceRecord[]>;
  /**
   * For each (term, version): how many live users accepted it, and how many
   * live users there are in all (so the rest have still to accept it).
   * One round trip whatever the number of terms.
   */
  countLive(
    tx: Tx,
    versions: { termId: string; version: string }[],
  ): Promise<{ accepted: number[]; liveUsers: number }>;
}
