import { beforeAll, expect, it } from 'vitest';
import type { AuthorizationCodeRepository, Tx } from '../../../src/storage/repositories.js';
import type { AuthorizationCodeRecord } from '../../../src/model/index.js';
import { racers, withStorages, type Subject } from './subject.js';
import { clientRecord, userRecord } from './records.js';

function code(codeHash: string, overrides: Partial<AuthorizationCodeRecord> = {}): AuthorizationCodeRecord {
  return {
    codeHash,
    grantId: `grant-${codeHash}`,
    clientId: 'app',
    sub: 'alice',
    redirectUri: 'http://127.0.0.1/cb',
    scopes: ['openid', 'email'],
    nonce: 'n-1',
    codeChallenge: 'c'.repeat(43),
    codeChallengeMethod: 'S256',
    authTime: 1_000,
    amr: ['pwd', 'otp'],
    sessionId: 'session-hash',
    sid: 'session-public-id',
    claims: null,
    expiresAt: 61_000,
    consumedAt: null,
    createdAt: 1_000,
    ...overrides,
  };
}

export function describeAuthorizationCodes(s: Subject): void {
  let codes: AuthorizationCodeRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { authorizationCodes: codes },
    } = s);
    // A code belongs to a user and a client.
    await s.repositories.users.insert(db, userRecord('alice'));
    await s.repositories.clients.insertMany(db, [clientRecord('app')]);
  });

  it('stores a code and gives it back, field for field, on first consumption', async () => {
    await codes.insert(db, code('h1'));
    const first = await codes.consume(db, 'h1', 5_000);
    expect(first).toEqual({ record: code('h1', { consumedAt: 5_000 }), alreadyConsumed: false });
    const replay = await codes.consume(db, 'h1', 6_000);
    expect(replay).toEqual({ record: code('h1', { consumedAt: 5_000 }), alreadyConsumed: true });
  });

  it('keeps the claims a request asked for, JSON in and out', async () => {
    const claims = { idToken: ['email', 'groups'], userinfo: ['name'] };
    await codes.insert(db, code('with-claims', { claims }));
    expect((await codes.consume(db, 'with-claims', 5_000))?.record.claims).toEqual(claims);
  });

  it('answers null for an unknown code', async () => {
    expect(await codes.consume(db, 'nope', 1)).toBeNull();
  });

  it('lets exactly one of many concurrent redemptions win', async () => {
    await codes.insert(
      db,
      code('race', { nonce: null, codeChallenge: null, codeChallengeMethod: null, sessionId: null }),
    );
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => codes.consume(db, 'race', 10_000 + i)));
    expect(results.filter((r) => r?.alreadyConsumed === false)).toHaveLength(1);
    expect(results.every((r) => r?.record.codeChallenge === null)).toBe(true);
  });

  it('lets exactly one redemption win across separate connections, and every caller sees its time', async () => {
    await codes.insert(db, code('race-2'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) => storage.repositories.authorizationCodes.consume(storage.db, 'race-2', 20_000 + i)),
      ),
    );
    const winners = results.filter((r) => r?.alreadyConsumed === false);
    expect(winners).toHaveLength(1);
    expect(results.map((r) => r?.record.consumedAt)).toEqual(Array(racers).fill(winners[0]?.record.consumedAt));
  });

  it("deletes a user's unredeemed codes issued outside the kept session (none included), never redeemed ones or other users'", async () => {
    await s.repositories.users.insert(db, userRecord('bob'));
    await codes.insert(db, code('kept', { sessionId: 'mine' }));
    await codes.insert(db, code('other-session', { sessionId: 'theirs' }));
    await codes.insert(db, code('no-session', { sessionId: null }));
    await codes.insert(db, code('redeemed', { sessionId: 'theirs', consumedAt: 2_000 }));
    await codes.insert(db, code('bobs', { sub: 'bob', sessionId: 'theirs' }));
    expect(await codes.deleteUnredeemedOutsideSession(db, 'alice', 'mine')).toBe(2);
    for (const hash of ['other-session', 'no-session']) expect(await codes.consume(db, hash, 3_000)).toBeNull();
    expect(await codes.consume(db, 'kept', 3_000)).toMatchObject({ alreadyConsumed: false });
    expect(await codes.consume(db, 'redeemed', 3_000)).toMatchObject({ alreadyConsumed: true });
    expect(await codes.consume(db, 'bobs', 3_000)).toMatchObject({ alreadyConsumed: false });
  });

  it('deletes the unredeemed codes of ended sessions; redeemed ones and other sessions stay', async () => {
    await codes.insert(db, code('s1', { sessionId: 's1' }));
    await codes.insert(db, code('s2', { sessionId: 's2', sid: 'public-s2' }));
    await codes.insert(db, code('s1-redeemed', { sessionId: 's1', consumedAt: 2_000 }));
    await codes.insert(db, code('s3', { sessionId: 's3' }));
    await codes.insert(db, code('none', { sessionId: null }));
    await codes.deleteUnredeemedOfSessions(db, ['s1', 's2']);
    for (const hash of ['s1', 's2']) expect(await codes.consume(db, hash, 3_000)).toBeNull();
    expect(await codes.consume(db, 's1-redeemed', 3_000)).toMatchObject({ alreadyConsumed: true });
    expect(await codes.consume(db, 's3', 3_000)).toMatchObject({ alreadyConsumed: false });
    expect(await codes.consume(db, 'none', 3_000)).toMatchObject({ alreadyConsumed: false });
    await codes.deleteUnredeemedOfSessions(db, []);
  });

  it('deletes expired codes only', async () => {
    await codes.insert(db, code('old', { expiresAt: 100 }));
    await codes.insert(db, code('fresh', { expiresAt: 10_000_000 }));
    expect(await codes.deleteExpired(db, 200, 100)).toBe(1);
    expect(await codes.consume(db, 'old', 300)).toBeNull();
    expect(await codes.consume(db, 'fresh', 300)).not.toBeNull();
  });

  it('deletes expired codes up to the limit, strictly before now', async () => {
    for (const hash of ['x1', 'x2', 'x3']) await codes.insert(db, code(hash, { expiresAt: 300 }));
    await codes.insert(db, code('at-now', { expiresAt: 400 }));
    expect(await codes.deleteExpired(db, 400, 2)).toBe(2);
    expect(await codes.deleteExpired(db, 400, 2)).toBe(1);
    expect(await codes.deleteExpired(db, 400, 2)).toBe(0);
    expect(await codes.consume(db, 'at-now', 400)).not.toBeNull();
  });
}
