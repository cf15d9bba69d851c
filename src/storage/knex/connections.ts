import type { ConnectionRepository } from '../repositories.js';
import type { ConnectionRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface ConnectionRow {
  provider_id: string;
  subject: string;
  sub: string;
  email: string | null;
  linked_at: DbInteger;
}

function fromRow(row: ConnectionRow): ConnectionRecord {
  return {
    providerId: row.provider_id,
    subject: row.subject,
    sub: row.sub,
    email: row.email,
    linkedAt: Number(row.linked_at),
  };
}

export const knexConnectionRepository = onKnex<ConnectionRepository>({
  async findByUpstream(tx, providerId, subject) {
    const row = (await tx('connections').where({ provider_id: providerId, subject }).first()) as
      ConnectionRow | undefined;
    return row ? fromRow(row) : null;
  },

  async listBySub(tx, sub) {
    const rows = (await tx('connections').where({ sub }).orderBy('provider_id')) as ConnectionRow[];
    return rows.map(fromRow);
  },

  async insert(tx, connection) {
    const row: ConnectionRow = {
      provider_id: connection.providerId,
      subject: connection.subject,
      sub: connection.sub,
      email: connection.email,
      linked_at: connection.linkedAt,
    };
    // No conflict target: either unique key (upstream account, or user and provider) makes it a no-op.
    const inserted = await tx('connections').insert(row).onConflict().ignore().returning('provider_id');
    return (inserted as unknown[]).length === 1;
  },

  async delete(tx, sub, providerId) {
    return (await tx('connections').where({ sub, provider_id: providerId }).delete()) > 0;
  },
});
