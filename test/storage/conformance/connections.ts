import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { ConnectionRepository, Tx } from '../../../src/storage/repositories.js';
import type { ConnectionRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { userRecord } from './records.js';

function connection(overrides: Partial<ConnectionRecord> = {}): ConnectionRecord {
  return {
    providerId: 'github',
    subject: '1001',
    sub: 'alice',
    email: 'alice@users.example',
    linkedAt: 1000,
    ...overrides,
  };
}

export function describeConnections(s: Subject): void {
  let connections: ConnectionRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { connections },
    } = s);
  });
  // A connection belongs to a user.
  beforeEach(async () => {
    await cleanTables(s.database.db, ['connections', 'users']);
    await s.repositories.users.insertMany(db, [userRecord('alice'), userRecord('bob')]);
  });

  it("stores a connection, finds it by upstream account, lists a user's by provider id, and deletes it", async () => {
    expect(await connections.insert(db, connection())).toBe(true);
    expect(
      await connections.insert(
        db,
        connection({ providerId: 'corp', subject: 'alice-at-corp', email: null, linkedAt: 2000 }),
      ),
    ).toBe(true);
    expect(await connections.findByUpstream(db, 'github', '1001')).toEqual(connection());
    expect(await connections.findByUpstream(db, 'github', '1002')).toBeNull();
    expect(await connections.findByUpstream(db, 'corp', '1001')).toBeNull();
    expect((await connections.listBySub(db, 'alice')).map((c) => [c.providerId, c.email])).toEqual([
      ['corp', null],
      ['github', 'alice@users.example'],
    ]);
    expect(await connections.listBySub(db, 'bob')).toEqual([]);
    expect(await connections.delete(db, 'bob', 'github')).toBe(false);
    expect(await connections.delete(db, 'alice', 'github')).toBe(true);
    expect(await connections.delete(db, 'alice', 'github')).toBe(false);
    expect(await connections.findByUpstream(db, 'github', '1001')).toBeNull();
  });

  it('links one upstream account to one user, and a user to one account per provider, without throwing', async () => {
    expect(await connections.insert(db, connection())).toBe(true);
    expect(await connections.insert(db, connection({ sub: 'bob' }))).toBe(false);
    expect(await connections.insert(db, connection({ subject: '2002' }))).toBe(false);
    expect(await connections.insert(db, connection({ sub: 'bob', subject: '2002' }))).toBe(true);
    expect((await connections.findByUpstream(db, 'github', '1001'))?.sub).toBe('alice');
  });

  it('lets exactly one of concurrent links of the same upstream account win', async () => {
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.connections.insert(
            storage.db,
            connection({ sub: i % 2 ? 'alice' : 'bob', linkedAt: i }),
          ),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('follows its user: deleting the user removes the connections', async () => {
    await connections.insert(db, connection());
    await s.database.db('users').where({ sub: 'alice' }).delete();
    expect(await connections.findByUpstream(db, 'github', '1001')).toBeNull();
  });
}
