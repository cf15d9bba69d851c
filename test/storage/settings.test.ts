import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { knexSettingsRepository as settings } from '../../src/storage/knex/settings.js';

describe.each(databaseKinds)('settings repository on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it('gets, sets, overwrites and deletes', async () => {
    expect(await settings.get(t.db, 'a')).toBeNull();
    await settings.set(t.db, 'a', 'one', 1);
    await settings.set(t.db, 'a', 'two', 2);
    expect(await settings.get(t.db, 'a')).toBe('two');
    await settings.delete(t.db, 'a');
    expect(await settings.get(t.db, 'a')).toBeNull();
  });

  it('getOrCreate stores once; later calls (and racing ones) read the first value', async () => {
    expect(await settings.getOrCreate(t.db, 'k', () => 'first', 1)).toBe('first');
    expect(await settings.getOrCreate(t.db, 'k', () => 'second', 2)).toBe('first');
    const raced = await Promise.all([1, 2, 3].map((n) => settings.getOrCreate(t.db, 'race', () => `v${n}`, n)));
    expect(new Set(raced).size).toBe(1);
  });
});
