import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { PasskeyRepository, Tx } from '../../../src/storage/repositories.js';
import type { PasskeyRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { userRecord } from './records.js';

function passkey(id: string, overrides: Partial<PasskeyRecord> = {}): PasskeyRecord {
  return {
    id,
    sub: 'alice',
    credentialId: `cred-${id}`,
    name: `Key ${id}`,
    publicKey: 'pQECAyYgASFYIA',
    signCount: 0,
    transports: ['internal', 'hybrid'],
    deviceType: 'multiDevice',
    backedUp: true,
    createdAt: 1000,
    lastUsedAt: null,
    ...overrides,
  };
}

export function describePasskeys(s: Subject): void {
  let passkeys: PasskeyRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { passkeys },
    } = s);
    for (const sub of ['alice', 'bob']) await s.repositories.users.insert(db, userRecord(sub));
  });
  beforeEach(() => cleanTables(s.database.db, ['passkeys']));

  it("round-trips every field, lists a user's oldest first and finds one by credential id", async () => {
    const long = 'x'.repeat(1364);
    await passkeys.insert(
      db,
      passkey('p2', {
        createdAt: 2000,
        credentialId: long,
        deviceType: 'singleDevice',
        backedUp: false,
        transports: [],
      }),
    );
    await passkeys.insert(db, passkey('p1', { lastUsedAt: 1500, signCount: 7 }));
    await passkeys.insert(db, passkey('b1', { sub: 'bob' }));
    expect(await passkeys.listBySub(db, 'alice')).toEqual([
      passkey('p1', { lastUsedAt: 1500, signCount: 7 }),
      passkey('p2', {
        createdAt: 2000,
        credentialId: long,
        deviceType: 'singleDevice',
        backedUp: false,
        transports: [],
      }),
    ]);
    expect(await passkeys.findByCredentialId(db, 'cred-b1')).toEqual(passkey('b1', { sub: 'bob' }));
    expect(await passkeys.findByCredentialId(db, 'cred-none')).toBeNull();
    expect(await passkeys.countBySubs(db, ['alice', 'bob', 'carol'])).toEqual(
      new Map([
        ['alice', 2],
        ['bob', 1],
      ]),
    );
  });

  it('refuses a credential id registered already, to anyone', async () => {
    expect(await passkeys.insert(db, passkey('p1'))).toBe(true);
    expect(await passkeys.insert(db, passkey('b1', { sub: 'bob', credentialId: 'cred-p1' }))).toBe(false);
    expect(await passkeys.listBySub(db, 'bob')).toEqual([]);
  });

  it('records a use only when the counter moves forward, or stays at zero for authenticators without one', async () => {
    await passkeys.insert(db, passkey('zero'));
    await passkeys.insert(db, passkey('counted', { signCount: 5 }));
    expect(await passkeys.recordUse(db, 'zero', { signCount: 0, backedUp: false, usedAt: 2000 })).toBe(true);
    expect(await passkeys.recordUse(db, 'counted', { signCount: 5, backedUp: true, usedAt: 2000 })).toBe(false);
    expect(await passkeys.recordUse(db, 'counted', { signCount: 0, backedUp: true, usedAt: 2000 })).toBe(false);
    expect(await passkeys.recordUse(db, 'counted', { signCount: 6, backedUp: false, usedAt: 3000 })).toBe(true);
    expect(await passkeys.recordUse(db, 'zero', { signCount: 1, backedUp: true, usedAt: 4000 })).toBe(true);
    const [counted, zero] = await passkeys
      .listBySub(db, 'alice')
      .then((all) => ['counted', 'zero'].map((id) => all.find((p) => p.id === id)));
    expect(counted).toMatchObject({ signCount: 6, backedUp: false, lastUsedAt: 3000 });
    expect(zero).toMatchObject({ signCount: 1, backedUp: true, lastUsedAt: 4000 });
  });

  it('lets exactly one of concurrent uses with one counter value win', async () => {
    await passkeys.insert(db, passkey('race', { signCount: 3 }));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage) =>
          storage.repositories.passkeys.recordUse(storage.db, 'race', { signCount: 4, backedUp: true, usedAt: 5000 }),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("renames and deletes only the user's own passkey", async () => {
    await passkeys.insert(db, passkey('p1'));
    await passkeys.insert(db, passkey('b1', { sub: 'bob' }));
    expect(await passkeys.rename(db, 'bob', 'p1', 'Stolen')).toBe(false);
    expect(await passkeys.rename(db, 'alice', 'p1', 'Laptop')).toBe(true);
    expect((await passkeys.listBySub(db, 'alice'))[0].name).toBe('Laptop');
    expect(await passkeys.delete(db, 'bob', 'p1')).toBe(false);
    expect(await passkeys.delete(db, 'alice', 'p1')).toBe(true);
    expect(await passkeys.delete(db, 'alice', 'p1')).toBe(false);
    expect(await passkeys.listBySub(db, 'alice')).toEqual([]);
    expect(await passkeys.deleteBySub(db, 'bob')).toBe(1);
    expect(await passkeys.countBySubs(db, ['alice', 'bob'])).toEqual(new Map());
  });
}
