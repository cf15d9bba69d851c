import type { LinkTokenRepository } from '../repositories.js';
import type { LinkTokenPurpose, LinkTokenRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';

interface LinkTokenRow {
  token_hash: string;
  sub: string;
  purpose: LinkTokenPurpose;
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

function fromRow(row: LinkTokenRow): LinkTokenRecord {
  return {
    tokenHash: row.token_hash,
    sub: row.sub,
    purpose: row.purpose,
    email: row.email,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

export const knexLinkTokenRepository = onKnex<LinkTokenRepository>({
  async insert(tx, token) {
    await tx('link_tokens').insert({
      token_hash: token.tokenHash,
      sub: token.sub,
      purpose: token.purpose,
      email: token.email,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      used_at: token.usedAt,
    });
  },
  async find(tx, tokenHash) {
    const row = (await tx('link_tokens').where({ token_hash: tokenHash }).first()) as LinkTokenRow | undefined;
    return row ? fromRow(row) : null;
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
    const row = (await tx('link_tokens').where({ token_hash: tokenHash }).first()) as LinkTokenRow;
    return fromRow(row);
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
