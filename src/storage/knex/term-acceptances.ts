import type { TermAcceptanceRepository } from '../repositories.js';
import type { TermAcceptanceRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface TermAcceptanceRow {
  sub: string;
  term_id: string;
  version: string;
  accepted_at: DbInteger;
}

export const knexTermAcceptanceRepository = onKnex<TermAcceptanceRepository>({
  async record(tx, acceptances) {
    if (acceptances.length === 0) return;
    const rows: TermAcceptanceRow[] = acceptances.map((a) => ({
      sub: a.sub,
      term_id: a.termId,
      version: a.version,
      accepted_at: a.acceptedAt,
    }));
    await tx('term_acceptances').insert(rows).onConflict(['sub', 'term_id', 'version']).ignore();
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
      .orderBy([{ column: 'accepted_at' }, { column: 'term_id' }, { column: 'version' }])) as TermAcceptanceRow[];
    return rows.map((row): TermAcceptanceRecord => ({
      sub: row.sub,
      termId: row.term_id,
      version: row.version,
      acceptedAt: Number(row.accepted_at),
    }));
  },
});
