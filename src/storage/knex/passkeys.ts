import type { PasskeyRepository } from '../repositories.js';
import type { PasskeyDeviceType, PasskeyRecord } from '../../model/index.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface PasskeyRow {
  id: string;
  sub: string;
  credential_id: string;
  name: string;
  public_key: string;
  sign_count: DbInteger;
  transports: string;
  device_type: PasskeyDeviceType;
  backed_up: boolean | number;
  created_at: DbInteger;
  last_used_at: DbInteger | null;
}

function fromRow(row: PasskeyRow): PasskeyRecord {
  return {
    id: row.id,
    sub: row.sub,
    credentialId: row.credential_id,
    name: row.name,
    publicKey: row.public_key,
    signCount: Number(row.sign_count),
    transports: JSON.parse(row.transports) as string[],
    deviceType: row.device_type,
    backedUp: Boolean(row.backed_up),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

function toRow(passkey: PasskeyRecord): PasskeyRow {
  return {
    id: passkey.id,
    sub: passkey.sub,
    credential_id: passkey.credentialId,
    name: passkey.name,
    public_key: passkey.publicKey,
    sign_count: passkey.signCount,
    transports: JSON.stringify(passkey.transports),
    device_type: passkey.deviceType,
    backed_up: passkey.backedUp,
    created_at: passkey.createdAt,
    last_used_at: passkey.lastUsedAt,
  };
}

export const knexPasskeyRepository = onKnex<PasskeyRepository>({
  async insert(tx, passkey) {
    const inserted = (await tx('passkeys')
      .insert(toRow(passkey))
      .onConflict('credential_id')
      .ignore()
      .returning('id')) as unknown[];
    return inserted.length === 1;
  },
  async listBySub(tx, sub) {
    const rows = (await tx('passkeys')
      .where({ sub })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as PasskeyRow[];
    return rows.map(fromRow);
  },
  async findByCredentialId(tx, credentialId) {
    const row = (await tx('passkeys').where({ credential_id: credentialId }).first()) as PasskeyRow | undefined;
    return row ? fromRow(row) : null;
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
