import type { TermRepository } from '../repositories.js';
import type { TermRecord, TermVersionRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, json, tableOf, text, timestamp, type Row } from './define-table.js';
import { termFields } from '../../model/term-fields.js';

const terms = tableOf<TermRecord, typeof termFields>('terms', termFields);

const termVersions = defineTable<TermVersionRecord>('term_versions', {
  termId: ['term_id', text()],
  version: ['version', text()],
  content: ['content', json()],
  createdAt: ['created_at', timestamp],
});

export const knexTermRepository = onKnex<TermRepository>({
  async findById(tx, id) {
    const row = (await tx('terms').where({ id }).first()) as Row | undefined;
    return row ? terms.fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = (await tx('terms').orderBy('id')) as Row[];
    return rows.map(terms.fromRow);
  },

  async save(tx, term) {
    await tx('terms')
      .insert(terms.toRow(term))
      .onConflict('id')
      .merge(['required', 'consent_mode', 'version', 'content', 'updated_at']);
    const version = { termId: term.id, version: term.version, content: term.content, createdAt: term.updatedAt };
    await tx('term_versions').insert(termVersions.toRow(version)).onConflict(['term_id', 'version']).merge(['content']);
  },

  async delete(tx, id) {
    await tx('terms').where({ id }).delete();
  },

  async listVersions(tx, termId) {
    const rows = (await tx('term_versions')
      .where({ term_id: termId })
      .orderBy([{ column: 'created_at' }, { column: 'version' }])) as Row[];
    return rows.map(termVersions.fromRow);
  },
});
