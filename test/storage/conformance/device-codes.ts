import { beforeAll, expect, it } from 'vitest';
import type { DeviceCodeRecord } from '../../../src/model/index.js';
import type { DeviceCodeRepository, Tx } from '../../../src/storage/repositories.js';
import { racers, withStorages, type Subject } from './subject.js';
import { clientRecord, userRecord } from './records.js';

function request(deviceCodeHash: string, overrides: Partial<DeviceCodeRecord> = {}): DeviceCodeRecord {
  return {
    deviceCodeHash,
    userCode: `U${deviceCodeHash.toUpperCase()}`.slice(0, 16),
    clientId: 'tv',
    scopes: ['openid', 'offline_access'],
    status: 'pending',
    confirmedBy: null,
    approval: null,
    grantId: `grant-${deviceCodeHash}`,
    intervalSeconds: 5,
    lastPolledAt: null,
    expiresAt: 600_000,
    spentAt: null,
    createdAt: 1_000,
    ...overrides,
  };
}

const approval = {
  sub: 'alice',
  sessionId: 'session-hash',
  sid: 'session-public-id',
  amr: ['pwd', 'otp'],
  authTime: 2_000,
};

export function describeDeviceCodes(s: Subject): void {
  let codes: DeviceCodeRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { deviceCodes: codes },
    } = s);
    await s.repositories.users.insert(db, userRecord('alice'));
    await s.repositories.users.insert(db, userRecord('bob'));
    await s.repositories.clients.insertMany(db, [clientRecord('tv')]);
  });

  it('stores a request and finds it, field for field, by user code and by device code digest', async () => {
    expect(await codes.insert(db, request('d1'))).toBe(true);
    expect(await codes.findByUserCode(db, 'UD1')).toEqual(request('d1'));
    expect(await codes.findByDeviceCode(db, 'd1')).toEqual(request('d1'));
    expect(await codes.findByUserCode(db, 'NONE')).toBeNull();
    expect(await codes.findByDeviceCode(db, 'none')).toBeNull();
  });

  it('refuses a second request with a user code already stored, storing nothing', async () => {
    await codes.insert(db, request('d2', { userCode: 'TAKEN' }));
    expect(await codes.insert(db, request('d3', { userCode: 'TAKEN' }))).toBe(false);
    expect(await codes.findByDeviceCode(db, 'd3')).toBeNull();
  });

  it('approves only for the user who confirmed, once, with the sign-in', async () => {
    await codes.insert(db, request('d4', { userCode: 'APPROVE' }));
    expect(await codes.decide(db, 'APPROVE', approval, 3_000)).toBe(false);
    expect(await codes.confirm(db, 'APPROVE', 'bob', 3_000)).toBe(true);
    expect(await codes.decide(db, 'APPROVE', approval, 3_000)).toBe(false);
    expect(await codes.confirm(db, 'APPROVE', 'alice', 3_000)).toBe(true);
    expect(await codes.decide(db, 'APPROVE', approval, 3_000)).toBe(true);
    expect(await codes.findByUserCode(db, 'APPROVE')).toEqual(
      request('d4', { userCode: 'APPROVE', status: 'approved', confirmedBy: 'alice', approval }),
    );
    expect(await codes.decide(db, 'APPROVE', 'denied', 3_000)).toBe(false);
    expect(await codes.confirm(db, 'APPROVE', 'bob', 3_000)).toBe(false);
  });

  it('denies a pending request; an expired one can be neither confirmed nor decided', async () => {
    await codes.insert(db, request('d5', { userCode: 'DENY' }));
    expect(await codes.decide(db, 'DENY', 'denied', 3_000)).toBe(true);
    expect((await codes.findByUserCode(db, 'DENY'))?.status).toBe('denied');
    await codes.insert(db, request('d6', { userCode: 'OLD', expiresAt: 3_000 }));
    expect(await codes.confirm(db, 'OLD', 'alice', 3_000)).toBe(false);
    expect(await codes.decide(db, 'OLD', 'denied', 3_000)).toBe(false);
  });

  it('records polls with the interval', async () => {
    await codes.insert(db, request('d7', { userCode: 'POLL' }));
    await codes.recordPoll(db, 'd7', 4_000, 10);
    expect(await codes.findByDeviceCode(db, 'd7')).toMatchObject({ lastPolledAt: 4_000, intervalSeconds: 10 });
  });

  it('spends only an approved request, once', async () => {
    await codes.insert(db, request('d8', { userCode: 'SPEND' }));
    expect(await codes.spend(db, 'd8', 5_000)).toBe(false);
    await codes.confirm(db, 'SPEND', 'alice', 5_000);
    await codes.decide(db, 'SPEND', approval, 5_000);
    expect(await codes.spend(db, 'd8', 5_000)).toBe(true);
    expect(await codes.spend(db, 'd8', 6_000)).toBe(false);
    expect((await codes.findByDeviceCode(db, 'd8'))?.spentAt).toBe(5_000);
  });

  it("denies what a session approved that its device has not polled yet; spent, pending and other sessions' requests stay", async () => {
    const approve = async (hash: string, sessionId: string) => {
      await codes.insert(db, request(hash, { userCode: `S${hash}` }));
      await codes.confirm(db, `S${hash}`, 'alice', 5_000);
      await codes.decide(db, `S${hash}`, { ...approval, sessionId }, 5_000);
    };
    await approve('s1', 'ended');
    await approve('s2', 'ended');
    await codes.spend(db, 's2', 5_000);
    await approve('s3', 'other');
    await codes.insert(db, request('s4', { userCode: 'Ss4' }));
    await codes.denyApprovedOfSessions(db, ['ended', 'gone']);
    const statuses = await Promise.all(
      ['s1', 's2', 's3', 's4'].map(async (hash) => (await codes.findByDeviceCode(db, hash))?.status),
    );
    expect(statuses).toEqual(['denied', 'approved', 'approved', 'pending']);
    await codes.denyApprovedOfSessions(db, []);
  });

  it('lets exactly one of concurrent spends win across separate connections', async () => {
    await codes.insert(db, request('race', { userCode: 'RACE' }));
    await codes.confirm(db, 'RACE', 'alice', 5_000);
    await codes.decide(db, 'RACE', approval, 5_000);
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(storages.map((storage, i) => storage.repositories.deviceCodes.spend(storage.db, 'race', 7_000 + i))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('deletes expired requests up to the limit, strictly before now', async () => {
    for (const hash of ['x1', 'x2', 'x3']) await codes.insert(db, request(hash, { expiresAt: 300 }));
    await codes.insert(db, request('at-now', { expiresAt: 400 }));
    expect(await codes.deleteExpired(db, 400, 2)).toBe(2);
    expect(await codes.deleteExpired(db, 400, 2)).toBe(1);
    expect(await codes.deleteExpired(db, 400, 2)).toBe(0);
    expect(await codes.findByDeviceCode(db, 'at-now')).not.toBeNull();
  });
}
