import type { TermAcceptanceRepository } from '../repositories.js';
import type { TermAcceptanceRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, text, timestamp, type Row } from './define-table.js';

const acceptances = defineTable<TermAcceptanceRecord>('term_acceptances', {
  sub: ['sub', text()],
  termId: ['term_id', text()],
  version: ['version', text()],
  acceptedAt: ['accepted_at', timestamp],
});

export const knexTermAcceptanceRepository = onKnex<TermAcceptanceRepository>({
  async record(tx, records) {
    if (records.length === 0) return;
    await tx('term_acceptances')
      .insert(records.map(acceptances.toRow))
      .onConflict(['sub', 'term_id', 'version'])
      .ignore();
  },
  async countLive(tx, versions) {
    const live = tx('users').whereNull('deleted_at');
    const acceptedOf = (termId: string, version: string) =>
      tx('term_acceptances as a')
        .join('users as u', 'u.sub', 'a.sub')
        .whereNull('u.deleted_at')
        .where({ 'a.term_id': termId, 'a.version': version })
        .count({ n: '*' });
    const columns = [
      live.clone().count({ n: '*' }).as('live'),
      ...versions.map((v, i) => acceptedOf(v.termId, v.version).as(`a${i}`)),
    ];
    const [row] = (await tx.select(columns)) as Record<string, number | string>[];
    return { accepted: versions.map((_, i) => Number(row[`a${i}`])), liveUsers: Number(row.live) };
  },
  async listBySub(tx, sub) {
    const rows = (await tx('term_acceptances')
      .where({ sub })
      .orderBy([{ column: 'accepted_at' }, { column: 'term_id' }, { column: 'version' }])) as Row[];
    return rows.map(acceptances.fromRow);
  },
});
