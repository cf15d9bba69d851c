import type { PushedAuthorizationRequestRepository } from '../repositories.js';
import type { PushedAuthorizationRequestRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, json, nullable, text, timestamp, type Row } from './define-table.js';

const table = 'pushed_authorization_requests';

const requests = defineTable<PushedAuthorizationRequestRecord>(table, {
  requestHash: ['request_hash', text()],
  clientId: ['client_id', text()],
  params: ['params', json<Record<string, string>>()],
  expiresAt: ['expires_at', timestamp],
  usedAt: ['used_at', nullable(timestamp)],
  createdAt: ['created_at', timestamp],
});

export const knexPushedAuthorizationRequestRepository = onKnex<PushedAuthorizationRequestRepository>({
  async insert(tx, record) {
    await tx(table).insert(requests.toRow(record));
  },
  async claim(tx, requestHash, clientId, now) {
    // The conditional update is the single-use guarantee: both engines apply
    // it under a row lock, so only one concurrent caller changes the row, and
    // only that caller reads it back.
    const changed = await tx(table)
      .where({ request_hash: requestHash, client_id: clientId })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .update({ used_at: now });
    if (changed === 0) return null;
    const row = (await tx(table).where({ request_hash: requestHash }).first()) as Row;
    return requests.fromRow(row);
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx(table).select('request_hash').where('expires_at', '<', now).limit(limit);
    return tx(table).whereIn('request_hash', expired).delete();
  },
});
