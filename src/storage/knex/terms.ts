import type { TermRepository } from '../repositories.js';
import type { TermContentRecord, TermRecord, TermVersionRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface TermRow {
  id: string;
  required: boolean | number;
  consent_mode: TermRecord['consentMode'];
  version: string;
  content: string;
  created_at: DbInteger;
  updated_at: DbInteger;
}

interface TermVersionRow {
  term_id: string;
  version: string;
  content: string;
  created_at: DbInteger;
}

function fromRow(row: TermRow): TermRecord {
  return {
    id: row.id,
    required: Boolean(row.required),
    consentMode: row.consent_mode,
    version: row.version,
    content: JSON.parse(row.content) as Record<string, TermContentRecord>,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function fromVersionRow(row: TermVersionRow): TermVersionRecord {
  return {
    termId: row.term_id,
    version: row.version,
    content: JSON.parse(row.content) as Record<string, TermContentRecord>,
    createdAt: Number(row.created_at),
  };
}

export const knexTermRepository = onKnex<TermRepository>({
  async findById(tx, id) {
    const row = (await tx<TermRow>('terms').where({ id }).first()) as TermRow | undefined;
    return row ? fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = await tx<TermRow>('terms').orderBy('id');
    return rows.map(fromRow);
  },

  async save(tx, term) {
    const content = JSON.stringify(term.content);
    await tx('terms')
      .insert({
        id: term.id,
        required: term.required,
        consent_mode: term.consentMode,
        version: term.version,
        content,
        created_at: term.createdAt,
        updated_at: term.updatedAt,
      })
      .onConflict('id')
      .merge(['required', 'consent_mode', 'version', 'content', 'updated_at']);
    await tx('term_versions')
      .insert({ term_id: term.id, version: term.version, content, created_at: term.updatedAt })
      .onConflict(['term_id', 'version'])
      .merge(['content']);
  },

  async delete(tx, id) {
    await tx('terms').where({ id }).delete();
  },

  async listVersions(tx, termId) {
    const rows = await tx<TermVersionRow>('term_versions')
      .where({ term_id: termId })
      .orderBy([{ column: 'created_at' }, { column: 'version' }]);
    return rows.map(fromVersionRow);
  },
});
