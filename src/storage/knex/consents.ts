import type { ConsentRepository } from '../repositories.js';
import type { ConsentRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, list, text, timestamp, type Row } from './define-table.js';

const consents = defineTable<ConsentRecord>('consents', {
  sub: ['sub', text()],
  clientId: ['client_id', text()],
  scopes: ['scopes', list()],
  grantedAt: ['granted_at', timestamp],
});

export const knexConsentRepository = onKnex<ConsentRepository>({
  async find(tx, sub, clientId) {
    const row = (await tx('consents').where({ sub, client_id: clientId }).first()) as Row | undefined;
    return row ? consents.fromRow(row) : null;
  },
  async grant(tx, sub, clientId, scopes, now) {
    const existing = await this.find(tx, sub, clientId);
    const merged = [...new Set([...(existing?.scopes ?? []), ...scopes])];
    const consent: ConsentRecord = { sub, clientId, scopes: merged, grantedAt: now };
    await tx('consents')
      .insert(consents.toRow(consent))
      .onConflict(['sub', 'client_id'])
      .merge(['scopes', 'granted_at']);
    return consent;
  },
  async listBySub(tx, sub) {
    const rows = (await tx('consents').where({ sub }).orderBy('client_id')) as Row[];
    return rows.map(consents.fromRow);
  },
  async revoke(tx, sub, clientId) {
    return (await tx('consents').where({ sub, client_id: clientId }).delete()) > 0;
  },
});
