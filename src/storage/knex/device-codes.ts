import type { DeviceCodeRepository } from '../repositories.js';
import type { DeviceCodeRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { defineTable, integer, list, nullable, text, timestamp, type Row } from './define-table.js';

/** The row's shape: the approval's fields are columns of their own. */
type DeviceCodeRow = Omit<DeviceCodeRecord, 'approval'> & {
  sub: string | null;
  sessionId: string | null;
  sid: string | null;
  amr: string[];
  authTime: number | null;
};

const deviceCodes = defineTable<DeviceCodeRow>('device_codes', {
  deviceCodeHash: ['device_code_hash', text()],
  userCode: ['user_code', text()],
  clientId: ['client_id', text()],
  scopes: ['scopes', list()],
  status: ['status', text()],
  confirmedBy: ['confirmed_by', nullable(text())],
  sub: ['sub', nullable(text())],
  sessionId: ['session_id', nullable(text())],
  sid: ['sid', nullable(text())],
  amr: ['amr', list()],
  authTime: ['auth_time', nullable(timestamp)],
  grantId: ['grant_id', text()],
  intervalSeconds: ['interval_seconds', integer],
  lastPolledAt: ['last_polled_at', nullable(timestamp)],
  expiresAt: ['expires_at', timestamp],
  spentAt: ['spent_at', nullable(timestamp)],
  createdAt: ['created_at', timestamp],
});

function toRow(record: DeviceCodeRecord): Row {
  const { approval, ...rest } = record;
  return deviceCodes.toRow({
    ...rest,
    sub: approval?.sub ?? null,
    sessionId: approval?.sessionId ?? null,
    sid: approval?.sid ?? null,
    amr: approval?.amr ?? [],
    authTime: approval?.authTime ?? null,
  });
}

function fromRow(row: Row): DeviceCodeRecord {
  const { sub, sessionId, sid, amr, authTime, ...rest } = deviceCodes.fromRow(row);
  // decide() writes them together: an approved row has them all.
  const approval =
    sub !== null && sessionId !== null && sid !== null && authTime !== null
      ? { sub, sessionId, sid, amr, authTime }
      : null;
  return { ...rest, approval };
}

export const knexDeviceCodeRepository = onKnex<DeviceCodeRepository>({
  async insert(tx, record) {
    const inserted = await tx('device_codes')
      .insert(toRow(record))
      .onConflict('user_code')
      .ignore()
      .returning('device_code_hash');
    return inserted.length === 1;
  },
  async findByUserCode(tx, userCode) {
    const row = (await tx('device_codes').where({ user_code: userCode }).first()) as Row | undefined;
    return row ? fromRow(row) : null;
  },
  async findByDeviceCode(tx, deviceCodeHash) {
    const row = (await tx('device_codes').where({ device_code_hash: deviceCodeHash }).first()) as Row | undefined;
    return row ? fromRow(row) : null;
  },
  async confirm(tx, userCode, sub, now) {
    const changed = await tx('device_codes')
      .where({ user_code: userCode, status: 'pending' })
      .where('expires_at', '>', now)
      .update({ confirmed_by: sub });
    return changed === 1;
  },
  async decide(tx, userCode, decision, now) {
    const pending = tx('device_codes').where({ user_code: userCode, status: 'pending' }).where('expires_at', '>', now);
    const changed =
      decision === 'denied'
        ? await pending.update({ status: 'denied' })
        : await pending.where({ confirmed_by: decision.sub }).update({
            status: 'approved',
            sub: decision.sub,
            session_id: decision.sessionId,
            sid: decision.sid,
            amr: JSON.stringify(decision.amr),
            auth_time: decision.authTime,
          });
    return changed === 1;
  },
  async recordPoll(tx, deviceCodeHash, now, intervalSeconds) {
    await tx('device_codes')
      .where({ device_code_hash: deviceCodeHash })
      .update({ last_polled_at: now, interval_seconds: intervalSeconds });
  },
  async spend(tx, deviceCodeHash, now) {
    // The conditional update is the single-use guarantee: both engines apply
    // it under a row lock, so only one concurrent caller changes the row.
    const changed = await tx('device_codes')
      .where({ device_code_hash: deviceCodeHash, status: 'approved' })
      .whereNull('spent_at')
      .update({ spent_at: now });
    return changed === 1;
  },
  async denyApprovedOfSessions(tx, sessionIds) {
    for (const list of oneOfLists(tx, sessionIds))
      await whereOneOf(tx, 'device_codes', 'session_id', list)
        .where({ status: 'approved' })
        .whereNull('spent_at')
        .update({ status: 'denied' });
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx('device_codes').select('device_code_hash').where('expires_at', '<', now).limit(limit);
    return tx('device_codes').whereIn('device_code_hash', expired).delete();
  },
});
