import type { ConsentRepository } from '../repositories.js';
import type { ConsentRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface ConsentRow {
  sub: string;
  client_id: string;
  scopes: string;
  granted_at: DbInteger;
}

function fromRow(row: ConsentRow): ConsentRecord {
  return {
    sub: row.sub,
    clientId: row.client_id,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    grantedAt: Number(row.granted_at),
  };
}

export const knexConsentRepository = onKnex<ConsentRepository>({
  async find(tx, sub, clientId) {
    const row = (await tx('consents').where({ sub, client_id: clientId }).first()) as ConsentRow | undefined;
    return row ? fromRow(row) : null;
  },
  async grant(tx, sub, clientId, scopes, now) {
    const existing = await this.find(tx, sub, clientId);
    const merged = [...new Set([...(existing?.scopes ?? []), ...scopes])];
    const row: ConsentRow = { sub, client_id: clientId, scopes: merged.join(' '), granted_at: now };
    await tx('consents').insert(row).onConflict(['sub', 'client_id']).merge(['scopes', 'granted_at']);
    return fromRow(row);
  },
  async listBySub(tx, sub) {
    const rows = (await tx('consents').where({ sub }).orderBy('client_id')) as ConsentRow[];
    return rows.map(fromRow);
  },
  async revoke(tx, sub, clientId) {
    return (await tx('consents').where({ sub, client_id: clientId }).delete()) > 0;
  },
});
