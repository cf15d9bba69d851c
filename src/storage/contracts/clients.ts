/** Clients, config-managed (src/gitops), and the probe a client cache reloads by. */
import type { ClientRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface ClientRepository {
  findById(tx: Tx, clientId: string): Promise<ClientRecord | null>;
  /** Every client, ordered by client_id. */
  listAll(tx: Tx): Promise<ClientRecord[]>;
  /** Inserts many rows in batches. */
  insertMany(tx: Tx, clients: ClientRecord[]): Promise<void>;
  update(tx: Tx, clientId: string, changes: Partial<Omit<ClientRecord, 'clientId' | 'createdAt'>>): Promise<void>;
  deleteMany(tx: Tx, clientIds: string[]): Promise<void>;
}

/** A cheap probe of the clients table, so that a cache knows when to reload. */
export interface ClientChangeProbe {
  /** Changes whenever a client is inserted, updated or deleted (count and latest updated_at). */
  fingerprint(tx: Tx): Promise<string>;
}
