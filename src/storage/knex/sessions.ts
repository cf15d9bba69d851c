import type { SessionRepository } from '../repositories.js';
import type { SessionRecord } from '../../model/index.js';
import type { Knex } from 'knex';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { boolean, defineTable, list, text, timestamp, type Row } from './define-table.js';

const sessions = defineTable<SessionRecord>('sessions', {
  idHash: ['id_hash', text()],
  publicId: ['public_id', text()],
  sub: ['sub', text()],
  createdAt: ['created_at', timestamp],
  lastSeenAt: ['last_seen_at', timestamp],
  expiresAt: ['expires_at', timestamp],
  authTime: ['auth_time', timestamp],
  amr: ['amr', list()],
  secondFactorPending: ['second_factor_pending', boolean],
  secondFactorRequired: ['second_factor_required', boolean],
});

export const knexSessionRepository = onKnex<SessionRepository>({
  async insert(tx, session) {
    await tx('sessions').insert(sessions.toRow(session));
  },
  async countLive(tx, now) {
    const [{ total }] = (await tx('sessions')
      .where('expires_at', '>', now)
      .andWhere('second_factor_pending', false)
      .count({ total: '*' })) as { total: number | string }[];
    return Number(total);
  },
  async findByIdHash(tx, idHash) {
    const row = (await tx('sessions').where({ id_hash: idHash }).first()) as Row | undefined;
    return row ? sessions.fromRow(row) : null;
  },
  async findBySubs(tx, subs) {
    const found: SessionRecord[] = [];
    for (const list of oneOfLists(tx, subs))
      for (const row of (await whereOneOf(tx, 'sessions', 'sub', list).select('*')) as Row[])
        found.push(sessions.fromRow(row));
    return found;
  },
  async update(tx, idHash, changes) {
    await tx('sessions').where({ id_hash: idHash }).update(sessions.toColumns(changes));
  },
  async renew(tx, idHash, newIdHash, changes) {
    const renewed = await tx('sessions')
      .where({ id_hash: idHash })
      .update({ ...sessions.toColumns(changes), id_hash: newIdHash });
    if (renewed === 0) return false;
    await tx('grants').where({ session_id: idHash }).update({ session_id: newIdHash });
    await tx('authorization_codes').where({ session_id: idHash }).update({ session_id: newIdHash });
    await tx('device_codes').where({ session_id: idHash }).update({ session_id: newIdHash });
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
