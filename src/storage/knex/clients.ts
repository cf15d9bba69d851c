import type { ClientRepository } from '../repositories.js';
import type { ClientRecord } from '../../model/index.js';
import { inBatches } from './in-batches.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { tableOf, type Row } from './define-table.js';
import { clientFields } from '../../model/client-fields.js';

const clients = tableOf<ClientRecord, typeof clientFields>('clients', clientFields);

/**
 * Rows per insert statement: knex writes a multi-row insert on SQLite as a
 * compound SELECT, capped at 500 terms; 400 rows also keep the bound
 * parameters far below both engines' limits.
 */
const BATCH_SIZE = 400;

export const knexClientRepository = onKnex<ClientRepository>({
  async findById(tx, clientId) {
    const row = (await tx(clients.name).where({ client_id: clientId }).first()) as Row | undefined;
    return row ? clients.fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = (await tx(clients.name).orderBy('client_id')) as Row[];
    return rows.map(clients.fromRow);
  },

  async insertMany(tx, records) {
    for (const batch of inBatches(records, BATCH_SIZE)) await tx(clients.name).insert(batch.map(clients.toRow));
  },

  async update(tx, clientId, changes) {
    const columns = clients.toColumns(changes);
    if (Object.keys(columns).length > 0) await tx(clients.name).where({ client_id: clientId }).update(columns);
  },

  async deleteMany(tx, clientIds) {
    for (const list of oneOfLists(tx, clientIds)) await whereOneOf(tx, clients.name, 'client_id', list).delete();
  },
});
