import type { FirstAdminTokenRecord, FirstAdminTokenRepository } from '../repositories.js';
import { onKnex } from './on-knex.js';
import { isPostgres } from './connect.js';
import { defineTable, text, timestamp, type Row } from './define-table.js';

const tokens = defineTable<FirstAdminTokenRecord>('first_admin_tokens', {
  tokenHash: ['token_hash', text()],
  createdAt: ['created_at', timestamp],
  expiresAt: ['expires_at', timestamp],
});

export const knexFirstAdminTokenRepository = onKnex<FirstAdminTokenRepository>({
  async insert(tx, token) {
    await tx('first_admin_tokens').insert(tokens.toRow(token));
  },
  async find(tx, tokenHash) {
    const row = (await tx('first_admin_tokens').where({ token_hash: tokenHash }).first()) as Row | undefined;
    return row ? tokens.fromRow(row) : null;
  },
  async takeAll(tx) {
    if (isPostgres(tx))
      return ((await tx('first_admin_tokens').delete().returning(tokens.columns)) as Row[]).map(tokens.fromRow);
    // SQLite: one connection per process runs one transaction at a time; another process's
    // transaction racing here fails to get the write lock (SQLITE_BUSY) and takes nothing.
    const rows = (await tx('first_admin_tokens').select(tokens.columns)) as Row[];
    await tx('first_admin_tokens').delete();
    return rows.map(tokens.fromRow);
  },
  async deleteExpired(tx, now) {
    return tx('first_admin_tokens').where('expires_at', '<', now).delete();
  },
});
