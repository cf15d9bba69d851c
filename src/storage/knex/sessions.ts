import type { SessionRepository } from '../repositories.js';
import type { SessionRecord } from '../../model/index.js';
import type { Knex } from 'knex';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';

interface SessionRow {
  id_hash: string;
  sub: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  auth_time: number;
  amr: string;
  second_factor_pending: boolean | number;
}

function fromRow(row: SessionRow): SessionRecord {
  return {
    idHash: row.id_hash,
    sub: row.sub,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
    authTime: Number(row.auth_time),
    amr: JSON.parse(row.amr) as string[],
    secondFactorPending: Boolean(row.second_factor_pending),
  };
}

function toColumns(changes: Partial<SessionRecord>): Partial<SessionRow> {
  const columns: Partial<SessionRow> = {};
  if (changes.idHash !== undefined) columns.id_hash = changes.idHash;
  if (changes.sub !== undefined) columns.sub = changes.sub;
  if (changes.createdAt !== undefined) columns.created_at = changes.createdAt;
  if (changes.lastSeenAt !== undefined) columns.last_seen_at = changes.lastSeenAt;
  if (changes.expiresAt !== undefined) columns.expires_at = changes.expiresAt;
  if (changes.authTime !== undefined) columns.auth_time = changes.authTime;
  if (changes.amr !== undefined) columns.amr = JSON.stringify(changes.amr);
  if (changes.secondFactorPending !== undefined) columns.second_factor_pending = changes.secondFactorPending;
  return columns;
}

export const knexSessionRepository = onKnex<SessionRepository>({
  async insert(tx, session) {
    await tx('sessions').insert(toColumns(session));
  },
  async findByIdHash(tx, idHash) {
    const row = (await tx('sessions').where({ id_hash: idHash }).first()) as SessionRow | undefined;
    return row ? fromRow(row) : null;
  },
  async update(tx, idHash, changes) {
    await tx('sessions').where({ id_hash: idHash }).update(toColumns(changes));
  },
  async renew(tx, idHash, newIdHash, changes) {
    const renewed = await tx('sessions')
      .where({ id_hash: idHash })
      .update({ ...toColumns(changes), id_hash: newIdHash });
    if (renewed === 0) return false;
    await tx('grants').where({ session_id: idHash }).update({ session_id: newIdHash });
    await tx('authorization_codes').where({ session_id: idHash }).update({ session_id: newIdHash });
    return true;
  },
  async delete(tx, idHash) {
    await tx('sessions').where({ id_hash: idHash }).delete();
  },
  async deleteBySub(tx: Knex, sub: string) {
    return tx('sessions').where({ sub }).delete();
  },
  async deleteBySubs(tx, subs) {
    for (const list of oneOfLists(tx, subs)) await whereOneOf(tx, 'sessions', 'sub', list).delete();
  },
  async deleteOthersOfUser(tx, sub, keepIdHash) {
    return tx('sessions').where({ sub }).whereNot({ id_hash: keepIdHash }).delete();
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx('sessions').select('id_hash').where('expires_at', '<', now).limit(limit);
    return tx('sessions').whereIn('id_hash', expired).delete();
  },
});
