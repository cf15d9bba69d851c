import type { TotpRepository } from '../repositories.js';
import type { TotpCredentialRecord } from '../../model/index.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface TotpRow {
  sub: string;
  secret: string;
  confirmed_at: DbInteger | null;
  last_used_step: DbInteger | null;
  created_at: DbInteger;
}

const optionalNumber = (value: DbInteger | null) => (value === null ? null : Number(value));

function fromRow(row: TotpRow): TotpCredentialRecord {
  return {
    sub: row.sub,
    sealedSecret: row.secret,
    confirmedAt: optionalNumber(row.confirmed_at),
    lastUsedStep: optionalNumber(row.last_used_step),
    createdAt: Number(row.created_at),
  };
}

export const knexTotpRepository = onKnex<TotpRepository>({
  async find(tx, sub) {
    const row = (await tx('totp_credentials').where({ sub }).first()) as TotpRow | undefined;
    return row ? fromRow(row) : null;
  },
  async savePending(tx, record) {
    const row: TotpRow = {
      sub: record.sub,
      secret: record.sealedSecret,
      confirmed_at: null,
      last_used_step: null,
      created_at: record.createdAt,
    };
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
