import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { clientRecord, grantRecord, userRecord } from '../storage/conformance/records.js';
import { createSessionEnd, type SessionEnd } from '../../src/accounts/index.js';
import { logoutJobOutbox } from '../../src/gitops/logout-job-outbox.js';
import type { SessionRecord } from '../../src/model/index.js';

const session = (idHash: string, sub = 'alice'): SessionRecord => ({
  idHash,
  publicId: `public-${idHash}`,
  sub,
  createdAt: 1,
  lastSeenAt: 1,
  expiresAt: 9e12,
  authTime: 1,
  amr: ['pwd'],
  secondFactorPending: false,
  secondFactorRequired: false,
});

/**
 * What ending sessions ends (docs/oidc.md, "Sign-out and back-channel
 * logout"), on real storage, its Logout Tokens queued as real job rows.
 */
describe.each(databaseKinds)('ending sessions on %s', (kind) => {
  let t: TestDatabase;
  let end: SessionEnd;
  const clock = { now: () => 5000 };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const { repositories } = t.storage;
    await repositories.clients.insertMany(t.tx, [
      clientRecord('rp', { backchannelLogoutUri: 'https://rp.example/bcl' }),
    ]);
    end = createSessionEnd({
      sessions: repositories.sessions,
      tokens: repositories.tokens,
      codes: repositories.authorizationCodes,
      deviceCodes: repositories.deviceCodes,
      outbox: logoutJobOutbox({ jobs: repositories.backgroundJobs, maxAttempts: 4, clock }),
      clock,
    });
  });
  afterAll(() => t.destroy());
  beforeEach(async () => {
    for (const table of ['background_jobs', 'refresh_tokens', 'grants', 'device_codes', 'sessions'])
      await t.db(table).delete();
    const { sessions, tokens } = t.storage.repositories;
    for (const [idHash, sub] of [
      ['a1', 'alice'],
      ['a2', 'alice'],
      ['b1', 'bob'],
    ]) {
      await sessions.insert(t.tx, session(idHash, sub));
      await tokens.insertGrant(
        t.tx,
        grantRecord(`g-${idHash}`, { clientId: 'rp', sub, sessionId: idHash, scopes: ['openid'] }),
      );
    }
    // A session in which no client got anything: ended like the others, with no Logout Token.
    await sessions.insert(t.tx, session('c1', 'carol'));
  });

  const jobs = async () =>
    (await t.storage.repositories.backgroundJobs.list(t.tx, { limit: 10 }))
      .map((job) => ({ kind: job.kind, payload: job.payload, maxAttempts: job.maxAttempts }))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  const live = async (idHash: string) => (await t.storage.repositories.sessions.findByIdHash(t.tx, idHash)) !== null;
  const revoked = async (idHash: string) =>
    (await t.storage.repositories.tokens.findGrant(t.tx, `g-${idHash}`))?.revokedAt ?? null;
  const logoutJob = (sub: string, idHash: string) => ({
    kind: 'backchannel.logout',
    payload: { clientId: 'rp', sub, sid: `public-${idHash}` },
    maxAttempts: 4,
  });

  it('ends one session: its grant revoked, one Logout Token job; a session already gone is no error', async () => {
    await end.one(t.tx, 'a1');
    expect([await live('a1'), await live('a2'), await revoked('a1'), await revoked('a2')]).toEqual([
      false,
      true,
      5000,
      null,
    ]);
    expect(await jobs()).toEqual([logoutJob('alice', 'a1')]);
    await end.one(t.tx, 'a1');
    expect(await jobs()).toHaveLength(1);
  });

  it('denies a device request the session approved whose device has not polled yet (RFC 8628)', async () => {
    const { deviceCodes, users } = t.storage.repositories;
    if (!(await users.findBySub(t.tx, 'alice'))) await users.insert(t.tx, userRecord('alice'));
    await deviceCodes.insert(t.tx, {
      deviceCodeHash: 'device-of-a1',
      userCode: 'BCDFGHJK',
      clientId: 'rp',
      scopes: ['openid'],
      status: 'approved',
      confirmedBy: 'alice',
      approval: { sub: 'alice', sessionId: 'a1', sid: 'public-a1', amr: ['pwd'], authTime: 4000 },
      grantId: 'g-device',
      intervalSeconds: 5,
      lastPolledAt: null,
      expiresAt: 100_000,
      spentAt: null,
      createdAt: 4000,
    });
    await end.one(t.tx, 'a1');
    expect((await deviceCodes.findByDeviceCode(t.tx, 'device-of-a1'))?.status).toBe('denied');
  });

  it("ends every session of several users, or every other of one user's", async () => {
    await end.othersOf(t.tx, 'alice', 'a2');
    expect([await live('a1'), await live('a2'), await live('b1')]).toEqual([false, true, true]);
    expect(await jobs()).toEqual([logoutJob('alice', 'a1')]);
    await end.allOf(t.tx, ['alice', 'bob', 'carol']);
    expect([await live('a2'), await live('b1'), await live('c1'), await revoked('b1')]).toEqual([
      false,
      false,
      false,
      5000,
    ]);
    expect(await jobs()).toEqual([logoutJob('alice', 'a1'), logoutJob('alice', 'a2'), logoutJob('bob', 'b1')]);
    await end.allOf(t.tx, ['nobody']);
    expect(await jobs()).toHaveLength(3);
  });
});
