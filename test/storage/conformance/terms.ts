import { beforeAll, expect, it } from 'vitest';
import type { TermRepository, Tx } from '../../../src/storage/repositories.js';
import type { TermRecord } from '../../../src/model/index.js';
import type { Subject } from './subject.js';

function term(overrides: Partial<TermRecord> = {}): TermRecord {
  return {
    id: 'tos',
    required: true,
    consentMode: 'explicit',
    version: '1',
    content: {
      en: { title: 'Terms', type: 'link', content: 'https://example.com/tos' },
      de: { title: 'AGB', type: 'text', content: '<p>Hallo</p>' },
    },
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function describeTerms(s: Subject): void {
  let terms: TermRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { terms },
    } = s);
  });

  it('saves, keeps a version history, and deletes without losing the history', async () => {
    await terms.save(db, term());
    expect(await terms.findById(db, 'tos')).toEqual(term());

    // Same version, new content: the history row follows, no new row.
    const edited = term({ content: { en: { title: 'Terms', type: 'text', content: 'v1 fixed' } }, updatedAt: 2000 });
    await terms.save(db, edited);
    expect(await terms.findById(db, 'tos')).toEqual({ ...edited, createdAt: 1000 });
    expect((await terms.listVersions(db, 'tos')).map((v) => [v.version, v.content.en.content])).toEqual([
      ['1', 'v1 fixed'],
    ]);

    // A new version string adds a history row.
    await terms.save(db, term({ version: '2', required: false, consentMode: 'implicit', updatedAt: 3000 }));
    const stored = await terms.findById(db, 'tos');
    expect(stored).toMatchObject({
      version: '2',
      required: false,
      consentMode: 'implicit',
      createdAt: 1000,
      updatedAt: 3000,
    });
    expect((await terms.listVersions(db, 'tos')).map((v) => [v.version, v.createdAt])).toEqual([
      ['1', 1000],
      ['2', 3000],
    ]);

    await terms.save(db, term({ id: 'privacy' }));
    expect((await terms.listAll(db)).map((x) => x.id)).toEqual(['privacy', 'tos']);
    await terms.delete(db, 'tos');
    expect(await terms.findById(db, 'tos')).toBeNull();
    expect((await terms.listVersions(db, 'tos')).length).toBe(2);
  });

  it('knows nothing of a term never saved', async () => {
    expect(await terms.findById(db, 'cookies')).toBeNull();
    expect(await terms.listVersions(db, 'cookies')).toEqual([]);
  });
}
