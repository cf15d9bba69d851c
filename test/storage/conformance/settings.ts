import { beforeAll, expect, it } from 'vitest';
import type { SettingsRepository, Tx } from '../../../src/storage/repositories.js';
import { racers, withStorages, type Subject } from './subject.js';

export function describeSettings(s: Subject): void {
  let settings: SettingsRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { settings },
    } = s);
  });

  it('gets, sets, overwrites and deletes', async () => {
    expect(await settings.get(db, 'a')).toBeNull();
    await settings.set(db, 'a', 'one', 1);
    await settings.set(db, 'a', 'two', 2);
    expect(await settings.get(db, 'a')).toBe('two');
    await settings.delete(db, 'a');
    expect(await settings.get(db, 'a')).toBeNull();
  });

  it('getOrCreate stores once; later calls (and racing ones) read the first value', async () => {
    expect(await settings.getOrCreate(db, 'k', () => 'first', 1)).toBe('first');
    expect(await settings.getOrCreate(db, 'k', () => 'second', 2)).toBe('first');
    const raced = await Promise.all([1, 2, 3].map((n) => settings.getOrCreate(db, 'race', () => `v${n}`, n)));
    expect(new Set(raced).size).toBe(1);
  });

  it('getOrCreate racing on separate connections: every caller gets the one stored value', async () => {
    const values = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.settings.getOrCreate(storage.db, 'shared', () => `value-${i}`, i),
        ),
      ),
    );
    expect(new Set(values).size).toBe(1);
    expect(await settings.get(db, 'shared')).toBe(values[0]);
  });
}
