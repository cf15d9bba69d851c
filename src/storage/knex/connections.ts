import type { ConnectionRepository } from '../repositories.js';
import type { ConnectionRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, nullable, text, timestamp, type Row } from './define-table.js';

const connections = defineTable<ConnectionRecord>('connections', {
  providerId: ['provider_id', text()],
  subject: ['subject', text()],
  sub: ['sub', text()],
  email: ['email', nullable(text())],
  linkedAt: ['linked_at', timestamp],
});

export const knexConnectionRepository = onKnex<ConnectionRepository>({
  async findByUpstream(tx, providerId, subject) {
    const row = (await tx('connections').where({ provider_id: providerId, subject }).first()) as Row | undefined;
    return row ? connections.fromRow(row) : null;
  },

  async listBySub(tx, sub) {
    const rows = (await tx('connections').where({ sub }).orderBy('provider_id')) as Row[];
    return rows.map(connections.fromRow);
  },

  async insert(tx, connection) {
    // No conflict target: either unique key (upstream account, or user and provider) makes it a no-op.
    const inserted = await tx('connections')
      .insert(connections.toRow(connection))
      .onConflict()
      .ignore()
      .returning('provider_id');
    return (inserted as unknown[]).length === 1;
  },

  async delete(tx, sub, providerId) {
    return (await tx('connections').where({ sub, provider_id: providerId }).delete()) > 0;
  },
});
