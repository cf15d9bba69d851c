import type { TotpRepository } from '../repositories.js';
import type { TotpCredentialRecord } from '../../model/index.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { inBatches } from './in-batches.js';

/** Rows per INSERT: knex writes SQLite's multi-row insert as a compound SELECT, which SQLite caps at 500 terms. */
const BATCH_SIZE = 400;
import { defineTable, integer, nullable, text, timestamp, type Row } from './define-table.js';

const totp = defineTable<TotpCredentialRecord>('totp_credentials', {
  sub: ['sub', text()],
  sealedSecret: ['secret', text()],
  confirmedAt: ['confirmed_at', nullable(timestamp)],
  lastUsedStep: ['last_used_step', nullable(integer)],
  createdAt: ['created_at', timestamp],
});

export const knexTotpRepository = onKnex<TotpRepository>({
  async find(tx, sub) {
    const row = (await tx('totp_credentials').where({ sub }).first()) as Row | undefined;
    return row ? totp.fromRow(row) : null;
  },
  async savePending(tx, record) {
    const row = totp.toRow({ ...record, confirmedAt: null, lastUsedStep: null });
    // The WHERE of the upsert keeps a confirmed TOTP out of reach: then no row is written or returned.
    const written = (await tx('totp_credentials')
      .insert(row)
      .onConflict('sub')
      .merge(['secret', 'confirmed_at', 'last_used_step', 'created_at'])
      .where('totp_credentials.confirmed_at', null)
      .returning('sub')) as unknown[];
    return written.length === 1;
  },
  async confirm(tx, sub, sealedSecret, step, now) {
    const changed = await tx('totp_credentials')
      .where({ sub, secret: sealedSecret })
      .whereNull('confirmed_at')
      .update({ confirmed_at: now, last_used_step: step });
    return changed === 1;
  },
  async useStep(tx, sub, step) {
    const changed = await tx('totp_credentials')
      .where({ sub })
      .whereNotNull('confirmed_at')
      .andWhere((q) => q.whereNull('last_used_step').orWhere('last_used_step', '<', step))
      .update({ last_used_step: step });
    return changed === 1;
  },
  async delete(tx, sub) {
    return (await tx('totp_credentials').where({ sub }).delete()) === 1;
  },
  async insertMany(tx, records) {
    for (const batch of inBatches(records, BATCH_SIZE)) await tx('totp_credentials').insert(batch.map(totp.toRow));
  },
  async findConfirmedSubs(tx, subs) {
    const found = new Set<string>();
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, 'totp_credentials', 'sub', list)
        .whereNotNull('confirmed_at')
        .select('sub')) as { sub: string }[];
      for (const row of rows) found.add(row.sub);
    }
    return found;
  },
});
