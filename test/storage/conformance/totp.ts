import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { TotpRepository, Tx } from '../../../src/storage/repositories.js';
import type { TotpCredentialRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { userRecord } from './records.js';

function pending(sub: string, sealedSecret = `sealed-${sub}`, createdAt = 1000): TotpCredentialRecord {
  return { sub, sealedSecret, confirmedAt: null, lastUsedStep: null, createdAt };
}

export function describeTotp(s: Subject): void {
  let totp: TotpRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { totp },
    } = s);
    for (const sub of ['alice', 'bob', 'carol']) await s.repositories.users.insert(db, userRecord(sub));
  });
  beforeEach(() => cleanTables(s.database.db, ['totp_credentials']));

  it('stores a pending secret, replaces it while pending, and never replaces a confirmed one', async () => {
    expect(await totp.savePending(db, pending('alice', 'first'))).toBe(true);
    expect(await totp.find(db, 'alice')).toEqual(pending('alice', 'first'));
    expect(await totp.savePending(db, pending('alice', 'second', 2000))).toBe(true);
    expect(await totp.find(db, 'alice')).toEqual(pending('alice', 'second', 2000));
    expect(await totp.confirm(db, 'alice', 'second', 77, 3000)).toBe(true);
    expect(await totp.savePending(db, pending('alice', 'third', 4000))).toBe(false);
    expect(await totp.find(db, 'alice')).toEqual({
      sub: 'alice',
      sealedSecret: 'second',
      confirmedAt: 3000,
      lastUsedStep: 77,
      createdAt: 2000,
    });
    expect(await totp.find(db, 'nobody')).toBeNull();
  });

  it('inserts confirmed TOTPs in batches, which then accept steps like any other', async () => {
    const subs = Array.from({ length: 1201 }, (_, i) => `many-${i}`);
    await s.repositories.users.insertMany(
      db,
      subs.map((sub) => userRecord(sub)),
    );
    const confirmed = subs.map((sub) => ({ ...pending(sub), confirmedAt: 2000 }));
    await totp.insertMany(db, confirmed);
    await totp.insertMany(db, []);
    expect((await totp.findConfirmedSubs(db, subs)).size).toBe(1201);
    expect(await totp.find(db, 'many-1200')).toEqual(confirmed[1200]);
    expect(await totp.useStep(db, 'many-7', 5)).toBe(true);
    // Their TOTPs go with them (ON DELETE CASCADE).
    await s.database.db('users').where('sub', 'like', 'many-%').delete();
  });

  it('confirms only the pending secret it read, once', async () => {
    await totp.savePending(db, pending('alice', 'mine'));
    expect(await totp.confirm(db, 'alice', 'replaced meanwhile', 10, 3000)).toBe(false);
    expect(await totp.confirm(db, 'alice', 'mine', 10, 3000)).toBe(true);
    expect(await totp.confirm(db, 'alice', 'mine', 11, 3100)).toBe(false);
    expect(await totp.confirm(db, 'bob', 'mine', 10, 3000)).toBe(false);
  });

  it('accepts each step once and never an earlier one, only on a confirmed TOTP', async () => {
    await totp.savePending(db, pending('alice'));
    expect(await totp.useStep(db, 'alice', 100)).toBe(false);
    await totp.confirm(db, 'alice', 'sealed-alice', 100, 3000);
    expect(await totp.useStep(db, 'alice', 100)).toBe(false);
    expect(await totp.useStep(db, 'alice', 99)).toBe(false);
    expect(await totp.useStep(db, 'alice', 101)).toBe(true);
    expect(await totp.useStep(db, 'alice', 101)).toBe(false);
    expect((await totp.find(db, 'alice'))?.lastUsedStep).toBe(101);
    expect(await totp.useStep(db, 'nobody', 500)).toBe(false);
  });

  it('lets exactly one of concurrent uses of a step win, across separate connections', async () => {
    await totp.savePending(db, pending('alice'));
    await totp.confirm(db, 'alice', 'sealed-alice', 100, 3000);
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(storages.map((storage) => storage.repositories.totp.useStep(storage.db, 'alice', 101))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lets exactly one of concurrent confirmations win', async () => {
    await totp.savePending(db, pending('bob'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) => storage.repositories.totp.confirm(storage.db, 'bob', 'sealed-bob', 200 + i, 5000)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('deletes pending and confirmed ones, and names the users with a confirmed one', async () => {
    await totp.savePending(db, pending('alice'));
    await totp.savePending(db, pending('bob'));
    await totp.savePending(db, pending('carol'));
    await totp.confirm(db, 'alice', 'sealed-alice', 1, 1);
    await totp.confirm(db, 'carol', 'sealed-carol', 1, 1);
    expect(await totp.findConfirmedSubs(db, ['alice', 'bob', 'carol', 'nobody'])).toEqual(new Set(['alice', 'carol']));
    expect(await totp.findConfirmedSubs(db, [])).toEqual(new Set());
    expect(await totp.delete(db, 'alice')).toBe(true);
    expect(await totp.delete(db, 'bob')).toBe(true);
    expect(await totp.delete(db, 'bob')).toBe(false);
    expect(await totp.findConfirmedSubs(db, ['alice', 'bob', 'carol'])).toEqual(new Set(['carol']));
  });

  it('goes with its user', async () => {
    await s.repositories.users.insert(db, userRecord('dave'));
    await totp.savePending(db, pending('dave'));
    await s.database.db('users').where({ sub: 'dave' }).delete();
    expect(await totp.find(db, 'dave')).toBeNull();
  });
}
