/** Upstream identity providers, config-managed (src/gitops). */
import type { IdentityProviderRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface IdentityProviderRepository {
  findById(tx: Tx, id: string): Promise<IdentityProviderRecord | null>;
  /** Every provider, ordered by id. */
  listAll(tx: Tx): Promise<IdentityProviderRecord[]>;
  /** Inserts or replaces the provider. */
  save(tx: Tx, provider: IdentityProviderRecord): Promise<void>;
  delete(tx: Tx, id: string): Promise<void>;
}
