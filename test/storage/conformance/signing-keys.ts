import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { SigningKeyRepository, Tx } from '../../../src/storage/repositories.js';
import type { SigningKeyRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';

function key(generation: number, overrides: Partial<SigningKeyRecord> = {}): SigningKeyRecord {
  const kid = overrides.kid ?? `kid-${generation}`;
  return {
    kid,
    generation,
    alg: 'ES256',
    publicJwk: { kty: 'EC', crv: 'P-256', x: 'x-coordinate', y: 'y-coordinate', kid, alg: 'ES256', use: 'sig' },
    privateKey: `v1.iv.tag.ciphertext-${kid}`,
    createdAt: 1000 * generation,
    retireAt: null,
    ...overrides,
  };
}

const generations = (keys: SigningKeyRecord[]) => keys.map((k) => k.generation);

export function describeSigningKeys(s: Subject): void {
  let keys: SigningKeyRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { signingKeys: keys },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['signing_keys']));

  it('inserts a key only while its generation is free, and lists every key newest generation first', async () => {
    expect(await keys.insertIfGenerationFree(db, key(1))).toBe(true);
    expect(await keys.insertIfGenerationFree(db, key(1, { kid: 'late-1', alg: 'RS256' }))).toBe(false);
    expect(await keys.listAll(db)).toEqual([key(1)]);
    expect(await keys.insertIfGenerationFree(db, key(3, { alg: 'EdDSA', retireAt: 99_000 }))).toBe(true);
    expect(await keys.insertIfGenerationFree(db, key(2))).toBe(true);
    expect(generations(await keys.listAll(db))).toEqual([3, 2, 1]);
    expect((await keys.listAll(db))[0]).toEqual(key(3, { alg: 'EdDSA', retireAt: 99_000 }));
  });

  it('retires older keys of one algorithm that have no retire time yet; listLive drops a key once its retire time is reached', async () => {
    for (const k of [key(1, { retireAt: 500 }), key(2), key(3), key(4), key(5, { alg: 'RS256' })])
      await keys.insertIfGenerationFree(db, k);
    await keys.retireOlderThan(db, 'ES256', 4, 10_000);
    expect((await keys.listAll(db)).map((k) => [k.generation, k.retireAt])).toEqual([
      [5, null],
      [4, null],
      [3, 10_000],
      [2, 10_000],
      [1, 500],
    ]);
    await keys.retireOlderThan(db, 'RS256', 5, 20_000);
    expect((await keys.listAll(db)).find((k) => k.generation === 5)?.retireAt).toBeNull();
    await keys.retireOlderThan(db, 'RS256', 6, 20_000);
    expect((await keys.listAll(db)).find((k) => k.generation === 4)?.retireAt).toBeNull();
    expect(generations(await keys.listLive(db, 499))).toEqual([5, 4, 3, 2, 1]);
    expect(generations(await keys.listLive(db, 500))).toEqual([5, 4, 3, 2]);
    expect(generations(await keys.listLive(db, 9_999))).toEqual([5, 4, 3, 2]);
    expect(generations(await keys.listLive(db, 10_000))).toEqual([5, 4]);
    expect(generations(await keys.listLive(db, 20_000))).toEqual([4]);
  });

  it('lets exactly one of several instances racing for a generation insert its key', async () => {
    const inserted = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.signingKeys.insertIfGenerationFree(storage.db, key(7, { kid: `racer-${i}` })),
        ),
      ),
    );
    expect(inserted.filter(Boolean)).toHaveLength(1);
    expect((await keys.listAll(db)).map((k) => k.kid)).toEqual([`racer-${inserted.indexOf(true)}`]);
  });
}
