import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { ConsentRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { clientRecord, userRecord } from './records.js';

export function describeConsents(s: Subject): void {
  let consents: ConsentRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { consents },
    } = s);
  });
  // A consent belongs to a user and a client.
  beforeEach(async () => {
    await cleanTables(s.database.db, ['consents', 'users', 'clients']);
    await s.repositories.users.insertMany(db, [userRecord('alice'), userRecord('bob')]);
    await s.repositories.clients.insertMany(db, [clientRecord('app'), clientRecord('b-app'), clientRecord('a-app')]);
  });

  it('merges granted scopes and revokes a consent', async () => {
    expect(await consents.find(db, 'alice', 'app')).toBeNull();
    await consents.grant(db, 'alice', 'app', ['openid', 'email'], 10);
    const merged = await consents.grant(db, 'alice', 'app', ['email', 'profile'], 20);
    expect(merged).toEqual({ sub: 'alice', clientId: 'app', scopes: ['openid', 'email', 'profile'], grantedAt: 20 });
    expect(await consents.find(db, 'alice', 'app')).toEqual(merged);
    expect(await consents.listBySub(db, 'alice')).toEqual([merged]);
    expect(await consents.revoke(db, 'alice', 'app')).toBe(true);
    expect(await consents.revoke(db, 'alice', 'app')).toBe(false);
  });

  it('keeps one consent per user and client, listed by client id', async () => {
    expect(await consents.grant(db, 'alice', 'b-app', ['openid', 'openid'], 10)).toMatchObject({ scopes: ['openid'] });
    await consents.grant(db, 'alice', 'a-app', ['email'], 11);
    await consents.grant(db, 'bob', 'a-app', ['profile'], 12);
    expect((await consents.listBySub(db, 'alice')).map((c) => [c.clientId, c.scopes])).toEqual([
      ['a-app', ['email']],
      ['b-app', ['openid']],
    ]);
    expect(await consents.find(db, 'bob', 'b-app')).toBeNull();
    expect(await consents.revoke(db, 'bob', 'b-app')).toBe(false);
    expect(await consents.find(db, 'bob', 'a-app')).toMatchObject({ scopes: ['profile'], grantedAt: 12 });
  });

  it('follows its client: deleting the client removes its consents', async () => {
    await consents.grant(db, 'alice', 'app', ['openid'], 10);
    await consents.grant(db, 'alice', 'a-app', ['openid'], 10);
    await s.repositories.clients.deleteMany(db, ['app']);
    expect((await consents.listBySub(db, 'alice')).map((c) => c.clientId)).toEqual(['a-app']);
  });
}
