import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexTermRepository as terms } from '../../src/storage/knex/terms.js';
import type { TermRecord } from '../../src/model/index.js';

function term(overrides: Partial<TermRecord> = {}): TermRecord {
  return {
    id: 'tos',
    required: true,
    consentMode: 'explicit',
    version: '1',
    content: { en: { title: 'Terms', type: 'link', content: 'https://example.com/tos' }, de: { title: 'AGB', type: 'text', content: '<p>Hallo</p>' } },
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

describe.each(databaseKinds)('term repository on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it('saves, keeps a version history, and deletes without losing the history', async () => {
    await terms.save(t.db, term());
    expect(await terms.findById(t.db, 'tos')).toEqual(term());

    // Same version, new content: the history row follows, no new row.
    const edited = term({ content: { en: { title: 'Terms', type: 'text', content: 'v1 fixed' } }, updatedAt: 2000 });
    await terms.save(t.db, edited);
    expect(await terms.findById(t.db, 'tos')).toEqual({ ...edited, createdAt: 1000 });
    expect((await terms.listVersions(t.db, 'tos')).map((v) => [v.version, v.content.en.content])).toEqual([['1', 'v1 fixed']]);

    // A new version string adds a history row.
    await terms.save(t.db, term({ version: '2', required: false, consentMode: 'implicit', updatedAt: 3000 }));
    const stored = await terms.findById(t.db, 'tos');
    expect(stored).toMatchObject({ version: '2', required: false, consentMode: 'implicit', createdAt: 1000, updatedAt: 3000 });
    expect((await terms.listVersions(t.db, 'tos')).map((v) => [v.version, v.createdAt])).toEqual([
      ['1', 1000],
      ['2', 3000],
    ]);

    await terms.save(t.db, term({ id: 'privacy' }));
    expect((await terms.listAll(t.db)).map((x) => x.id)).toEqual(['privacy', 'tos']);
    await terms.delete(t.db, 'tos');
    expect(await terms.findById(t.db, 'tos')).toBeNull();
    expect((await terms.listVersions(t.db, 'tos')).length).toBe(2);
  });
});
