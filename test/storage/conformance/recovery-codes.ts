import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { RecoveryCodeRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { userRecord } from './records.js';

export function describeRecoveryCodes(s: Subject): void {
  let codes: RecoveryCodeRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { recoveryCodes: codes },
    } = s);
    for (const sub of ['alice', 'bob']) await s.repositories.users.insert(db, userRecord(sub));
  });
  beforeEach(() => cleanTables(s.database.db, ['recovery_codes']));

  it('uses each code once, and only its own user', async () => {
    await codes.replace(db, 'alice', ['h1', 'h2', 'h3'], 1000);
    expect(await codes.use(db, 'alice', 'h2', 2000)).toBe(true);
    expect(await codes.use(db, 'alice', 'h2', 2001)).toBe(false);
    expect(await codes.use(db, 'bob', 'h1', 2002)).toBe(false);
    expect(await codes.use(db, 'alice', 'unknown', 2003)).toBe(false);
    expect(await codes.countUnused(db, ['alice', 'bob'])).toEqual(new Map([['alice', 2]]));
  });

  it("replaces every code of the user, used or not, and nobody else's", async () => {
    await codes.replace(db, 'alice', ['a1', 'a2'], 1000);
    await codes.replace(db, 'bob', ['b1'], 1000);
    await codes.use(db, 'alice', 'a1', 1500);
    await codes.replace(db, 'alice', ['n1', 'n2', 'n3'], 2000);
    expect(await codes.use(db, 'alice', 'a2', 2100)).toBe(false);
    expect(await codes.use(db, 'alice', 'n1', 2100)).toBe(true);
    expect(await codes.countUnused(db, ['alice', 'bob'])).toEqual(
      new Map([
        ['alice', 2],
        ['bob', 1],
      ]),
    );
    await codes.replace(db, 'bob', [], 3000);
    expect(await codes.countUnused(db, ['bob'])).toEqual(new Map());
  });

  it('lets exactly one of concurrent uses of a code win, across separate connections', async () => {
    await codes.replace(db, 'alice', ['race'], 1000);
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) => storage.repositories.recoveryCodes.use(storage.db, 'alice', 'race', 2000 + i)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await codes.countUnused(db, ['alice'])).toEqual(new Map());
  });

  it("deletes a user's codes, counting them", async () => {
    await codes.replace(db, 'alice', ['a1', 'a2'], 1000);
    await codes.replace(db, 'bob', ['b1'], 1000);
    expect(await codes.deleteBySub(db, 'alice')).toBe(2);
    expect(await codes.countUnused(db, ['alice', 'bob'])).toEqual(new Map([['bob', 1]]));
  });
}
