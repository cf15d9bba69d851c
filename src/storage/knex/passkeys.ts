import type { PasskeyRepository } from '../repositories.js';
import type { PasskeyRecord } from '../../model/index.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { boolean, defineTable, integer, list, nullable, text, timestamp, type Row } from './define-table.js';

const passkeys = defineTable<PasskeyRecord>('passkeys', {
  id: ['id', text()],
  sub: ['sub', text()],
  credentialId: ['credential_id', text()],
  name: ['name', text()],
  publicKey: ['public_key', text()],
  signCount: ['sign_count', integer],
  transports: ['transports', list()],
  deviceType: ['device_type', text()],
  backedUp: ['backed_up', boolean],
  createdAt: ['created_at', timestamp],
  lastUsedAt: ['last_used_at', nullable(timestamp)],
});

export const knexPasskeyRepository = onKnex<PasskeyRepository>({
  async insert(tx, passkey) {
    const inserted = (await tx('passkeys')
      .insert(passkeys.toRow(passkey))
      .onConflict('credential_id')
      .ignore()
      .returning('id')) as unknown[];
    return inserted.length === 1;
  },
  async listBySub(tx, sub) {
    const rows = (await tx('passkeys')
      .where({ sub })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Row[];
    return rows.map(passkeys.fromRow);
  },
  async findByCredentialId(tx, credentialId) {
    const row = (await tx('passkeys').where({ credential_id: credentialId }).first()) as Row | undefined;
    return row ? passkeys.fromRow(row) : null;
  },
  async recordUse(tx, id, use) {
    // WebAuthn §6.1.1: authenticators without a counter always send 0; one that has a counter must raise it.
    const counter = use.signCount === 0 ? tx.raw('sign_count = 0') : tx.raw('sign_count < ?', [use.signCount]);
    const changed = await tx('passkeys')
      .where({ id })
      .andWhere(counter)
      .update({ sign_count: use.signCount, backed_up: use.backedUp, last_used_at: use.usedAt });
    return changed === 1;
  },
  async rename(tx, sub, id, name) {
    return (await tx('passkeys').where({ sub, id }).update({ name })) === 1;
  },
  async delete(tx, sub, id) {
    return (await tx('passkeys').where({ sub, id }).delete()) === 1;
  },
  deleteBySub(tx, sub) {
    return tx('passkeys').where({ sub }).delete();
  },
  async countBySubs(tx, subs) {
    const counts = new Map<string, number>();
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, 'passkeys', 'sub', list)
        .groupBy('sub')
        .select('sub')
        .count({ passkeys: '*' })) as {
        sub: string;
        passkeys: number | string;
      }[];
      for (const row of rows) counts.set(row.sub, Number(row.passkeys));
    }
    return counts;
  },
});
