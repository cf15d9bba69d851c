/**
 * The storage conformance suite (CONTRIBUTING.md, "How the code is written", 8): what every backend of
 * src/storage/repositories.ts must pass, run on SQLite and PostgreSQL.
 *
 * For each engine: one fresh database; first the Storage object itself
 * (storage.ts) and its garbage collection (garbage.ts), then one block per repository (blocks.ts), each starting
 * from empty tables. Blocks go through `storage.repositories` and
 * `storage.db` / `storage.transaction` only; single-use guarantees are
 * raced on separate connections (subject.ts `withStorages`). A repository
 * added to `Repositories` needs its block here, or the first test fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../support/databases.js';
import { cleanTables, useSubject } from './subject.js';
import { describeStorage } from './storage.js';
import { describeGarbage } from './garbage.js';
import { repositoryBlocks } from './blocks.js';

describe.each(databaseKinds)('storage conformance on %s', (kind) => {
  const subject = useSubject(kind);

  it('has a block for every repository', () => {
    expect(Object.keys(repositoryBlocks).sort()).toEqual(Object.keys(subject.repositories).sort());
  });

  describe('storage', () => describeStorage(subject));
  describe('collectGarbage', () => {
    beforeAll(() => cleanTables(subject.database.db));
    describeGarbage(subject);
  });

  for (const [name, block] of Object.entries(repositoryBlocks)) {
    describe(name, () => {
      beforeAll(() => cleanTables(subject.database.db));
      block(subject);
    });
  }
});
