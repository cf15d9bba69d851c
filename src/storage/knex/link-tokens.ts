import type { LinkTokenRepository } from '../repositories.js';
import type { LinkTokenRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, nullable, text, timestamp, type Row } from './define-table.js';

const linkTokens = defineTable<LinkTokenRecord>('link_tokens', {
  tokenHash: ['token_hash', text()],
  sub: ['sub', text()],
  purpose: ['purpose', text()],
  email: ['email', text()],
  createdAt: ['created_at', timestamp],
  expiresAt: ['expires_at', timestamp],
  usedAt: ['used_at', nullable(timestamp)],
});

export const knexLinkTokenRepository = onKnex<LinkTokenRepository>({
  async insert(tx, token) {
    await tx('link_tokens').insert(linkTokens.toRow(token));
  },
  async find(tx, tokenHash) {
    const row = (await tx('link_tokens').where({ token_hash: tokenHash }).first()) as Row | undefined;
    return row ? linkTokens.fromRow(row) : null;
  },
  async redeem(tx, tokenHash, purpose, now) {
    // The conditional update is the single-use guarantee: both engines apply
    // it under a row lock, so only one concurrent caller changes the row, and
    // only that caller reads it back.
    const changed = await tx('link_tokens')
      .where({ token_hash: tokenHash, purpose })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .update({ used_at: now });
    if (changed === 0) return null;
    const row = (await tx('link_tokens').where({ token_hash: tokenHash }).first()) as Row;
    return linkTokens.fromRow(row);
  },
  async voidUnused(tx, sub, purpose, now) {
    return tx('link_tokens').where({ sub, purpose }).whereNull('used_at').update({ used_at: now });
  },
  async voidAllUnused(tx, sub, now) {
    return tx('link_tokens').where({ sub }).whereNull('used_at').update({ used_at: now });
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx('link_tokens').select('token_hash').where('expires_at', '<', now).limit(limit);
    return tx('link_tokens').whereIn('token_hash', expired).delete();
  },
});
