import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { PushedAuthorizationRequestRepository, Tx } from '../../../src/storage/repositories.js';
import type { PushedAuthorizationRequestRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { clientRecord } from './records.js';

function pushed(
  requestHash: string,
  overrides: Partial<PushedAuthorizationRequestRecord> = {},
): PushedAuthorizationRequestRecord {
  return {
    requestHash,
    clientId: 'app',
    params: { client_id: 'app', scope: 'openid email', state: 'ü & = "x"', redirect_uri: 'https://a.example/cb' },
    expiresAt: 10_000,
    usedAt: null,
    createdAt: 1_000,
    ...overrides,
  };
}

export function describePushedAuthorizationRequests(s: Subject): void {
  let requests: PushedAuthorizationRequestRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { pushedAuthorizationRequests: requests },
    } = s);
  });
  // A pushed request belongs to a client.
  beforeEach(async () => {
    await cleanTables(s.database.db, ['pushed_authorization_requests', 'clients']);
    await s.repositories.clients.insertMany(db, [clientRecord('app'), clientRecord('other')]);
  });

  it('claims a pushed request once, field for field, and never again', async () => {
    await requests.insert(db, pushed('p1'));
    expect(await requests.claim(db, 'p1', 'app', 5_000)).toEqual(pushed('p1', { usedAt: 5_000 }));
    expect(await requests.claim(db, 'p1', 'app', 5_001)).toBeNull();
  });

  it("refuses an unknown request, another client's, and one at or after its expiry", async () => {
    await requests.insert(db, pushed('mine'));
    await requests.insert(db, pushed('late'));
    expect(await requests.claim(db, 'nope', 'app', 2_000)).toBeNull();
    expect(await requests.claim(db, 'mine', 'other', 2_000)).toBeNull();
    expect(await requests.claim(db, 'late', 'app', 10_000)).toBeNull();
    // Refusals change nothing: its own client before expiry still claims it.
    expect(await requests.claim(db, 'mine', 'app', 9_999)).toMatchObject({ usedAt: 9_999 });
  });

  it('lets exactly one of concurrent claims on separate connections win', async () => {
    await requests.insert(db, pushed('race'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.pushedAuthorizationRequests.claim(storage.db, 'race', 'app', 2_000 + i),
        ),
      ),
    );
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ requestHash: 'race', usedAt: expect.any(Number) });
  });

  it('lets exactly one of concurrent claims on one pool win', async () => {
    await requests.insert(db, pushed('race-pool'));
    const results = await Promise.all(
      Array.from({ length: racers }, (_, i) => requests.claim(db, 'race-pool', 'app', 2_000 + i)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('deletes requests that expired strictly before now, claimed or not, up to the limit', async () => {
    for (const hash of ['x1', 'x2', 'x3'])
      await requests.insert(db, pushed(hash, { expiresAt: 300, usedAt: hash === 'x1' ? 200 : null }));
    await requests.insert(db, pushed('at-now', { expiresAt: 400 }));
    expect(await requests.deleteExpired(db, 400, 2)).toBe(2);
    expect(await requests.deleteExpired(db, 400, 2)).toBe(1);
    expect(await requests.deleteExpired(db, 400, 2)).toBe(0);
    expect(await requests.claim(db, 'at-now', 'app', 399)).not.toBeNull();
  });

  it('goes with its client', async () => {
    await requests.insert(db, pushed('gone', { clientId: 'other' }));
    await s.database.db('clients').where({ client_id: 'other' }).delete();
    expect(await requests.claim(db, 'gone', 'other', 2_000)).toBeNull();
    expect(await s.database.db('pushed_authorization_requests').where({ request_hash: 'gone' })).toEqual([]);
  });
}
