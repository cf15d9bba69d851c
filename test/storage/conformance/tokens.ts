import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { TokenRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { clientRecord, grantRecord as grant, refreshTokenRecord as refreshToken } from './records.js';
import type { GrantRecord } from '../../../src/model/index.js';

export function describeTokens(s: Subject): void {
  let tokens: TokenRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { tokens },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['refresh_tokens', 'grants', 'revoked_access_tokens']));

  /** Inserts grants, each with the refresh tokens named after it. */
  async function seed(...grants: [GrantRecord, ...string[]][]): Promise<void> {
    for (const [g, ...hashes] of grants) {
      await tokens.insertGrant(db, g);
      for (const hash of hashes) await tokens.insertRefreshToken(db, refreshToken(hash, g));
    }
  }
  const revokedAt = async (hash: string) => (await tokens.findRefreshToken(db, hash))?.revokedAt;
  const grantRevokedAt = async (id: string) => (await tokens.findGrant(db, id))?.revokedAt;

  it('inserts a grant once (a second insert changes nothing) and reads it back', async () => {
    expect(await tokens.insertGrant(db, grant('g1'))).toBe(true);
    expect(await tokens.insertGrant(db, grant('g1', { scopes: ['openid'], sub: 'mallory' }))).toBe(false);
    expect(await tokens.findGrant(db, 'g1')).toEqual(grant('g1'));
    await tokens.insertGrant(db, grant('g2', { sessionId: null, scopes: [] }));
    expect(await tokens.findGrant(db, 'g2')).toEqual(grant('g2', { sessionId: null, scopes: [] }));
    expect(await tokens.findGrant(db, 'nope')).toBeNull();
  });

  it('extends a grant forward, never back', async () => {
    await tokens.insertGrant(db, grant('g1'));
    await tokens.extendGrant(db, 'g1', 20_000);
    expect((await tokens.findGrant(db, 'g1'))?.expiresAt).toBe(20_000);
    await tokens.extendGrant(db, 'g1', 15_000);
    expect((await tokens.findGrant(db, 'g1'))?.expiresAt).toBe(20_000);
  });

  const claim = (hash: string, successorHash: string, clientId = 'app') => ({
    tokenHash: hash,
    clientId,
    successorHash,
  });
  const times = { now: 2000, successorExpiresAt: 30_000 };
  const rotate = async (claims: ReturnType<typeof claim>[], at = times) =>
    (await tokens.claimRefreshTokens(db, claims, at)).claimed;
  const claimedHashes = async (claims: ReturnType<typeof claim>[], at = times) =>
    [...(await rotate(claims, at)).keys()].sort();

  it('stores refresh tokens and claims each exactly once, reading it with its grant, storing its successor and lengthening a grant that falls short by a tenth of a lifetime more', async () => {
    await seed([grant('g1'), 'r1']);
    expect(await tokens.findRefreshToken(db, 'r1')).toEqual(refreshToken('r1', grant('g1')));
    expect(await tokens.findRefreshToken(db, 'nope')).toBeNull();
    expect(await rotate([claim('r1', 'r2')])).toEqual(
      new Map([['r1', { token: refreshToken('r1', grant('g1'), { rotatedAt: 2000 }), grant: grant('g1') }]]),
    );
    expect(await rotate([claim('r1', 'r3')], { ...times, now: 3000 })).toEqual(new Map());
    expect((await tokens.findRefreshToken(db, 'r1'))?.rotatedAt).toBe(2000);
    expect(await tokens.findRefreshToken(db, 'r2')).toEqual(
      refreshToken('r2', grant('g1'), { createdAt: 2000, expiresAt: 30_000 }),
    );
    expect(await tokens.findRefreshToken(db, 'r3')).toBeNull();
    expect((await tokens.findGrant(db, 'g1'))?.expiresAt).toBe(32_800);
    expect(await tokens.claimRefreshTokens(db, [claim('nope', 'r4')], times)).toEqual({
      claimed: new Map(),
      generation: null,
    });
    expect(await tokens.findRefreshToken(db, 'r4')).toBeNull();
  });

  it("claims a group in one call: each once, a hash twice for its first claim only, only the presenting client's, only live and unexpired ones", async () => {
    await seed(
      [grant('g1'), 'a', 'b'],
      [grant('g2', { expiresAt: 90_000 }), 'c'],
      [grant('g3', { revokedAt: 1500 })],
      [grant('g4', { clientId: 'other' }), 'd'],
    );
    await tokens.insertRefreshToken(db, refreshToken('revoked', grant('g3'), { revokedAt: 1500 }));
    await tokens.insertRefreshToken(db, refreshToken('expired', grant('g1'), { expiresAt: 2000 }));
    const claims = [
      claim('a', 'a2'),
      claim('b', 'b2'),
      claim('a', 'a3'),
      claim('c', 'c2'),
      claim('revoked', 'x'),
      claim('expired', 'y'),
      claim('d', 'z'),
      claim('d', 'd2', 'other'),
    ];
    expect(await claimedHashes(claims)).toEqual(['a', 'b', 'c', 'd']);
    for (const stored of ['a2', 'b2', 'c2', 'd2']) expect(await tokens.findRefreshToken(db, stored)).not.toBeNull();
    for (const never of ['a3', 'x', 'y', 'z']) expect(await tokens.findRefreshToken(db, never)).toBeNull();
    expect((await tokens.findGrant(db, 'g1'))?.expiresAt).toBe(32_800);
    expect((await tokens.findGrant(db, 'g2'))?.expiresAt).toBe(90_000);
    expect((await tokens.findGrant(db, 'g3'))?.expiresAt).toBe(10_000);
  });

  it("reads a grant's requested claims back with the grant, beside its refresh token, and in the claim of a rotation", async () => {
    const claims = { idToken: ['email'], userinfo: ['name', 'groups'] };
    await seed([grant('g1', { claims }), 'r1']);
    expect((await tokens.findGrant(db, 'g1'))?.claims).toEqual(claims);
    expect((await tokens.findRefreshTokensWithGrants(db, ['r1'])).get('r1')?.grant?.claims).toEqual(claims);
    expect((await rotate([claim('r1', 'r2')])).get('r1')?.grant.claims).toEqual(claims);
  });

  it('finds refresh tokens with their grants in one call', async () => {
    await seed([grant('g1'), 'r1', 'r2'], [grant('g2', { revokedAt: 1500 }), 'r3']);
    const found = await tokens.findRefreshTokensWithGrants(db, ['r1', 'r3', 'nope']);
    expect([...found.keys()].sort()).toEqual(['r1', 'r3']);
    expect(found.get('r1')).toEqual({ token: refreshToken('r1', grant('g1')), grant: grant('g1') });
    expect(found.get('r3')).toEqual({
      token: refreshToken('r3', grant('g2', { revokedAt: 1500 })),
      grant: grant('g2', { revokedAt: 1500 }),
    });
    expect(await tokens.findRefreshTokensWithGrants(db, [])).toEqual(new Map());
  });

  it('revokeGrant revokes the grant and every refresh token under it, nothing else; a revoked token does not rotate', async () => {
    await seed([grant('g1'), 'r1', 'r2'], [grant('g2'), 'r3']);
    await tokens.revokeGrant(db, 'g1', 3000);
    expect([await grantRevokedAt('g1'), await revokedAt('r1'), await revokedAt('r2')]).toEqual([3000, 3000, 3000]);
    expect([await grantRevokedAt('g2'), await revokedAt('r3')]).toEqual([null, null]);
    expect(await claimedHashes([claim('r1', 'r1b'), claim('r3', 'r3b')], { ...times, now: 4000 })).toEqual(['r3']);
  });

  it('revokes the grants of listed users, or of listed clients, with their refresh tokens', async () => {
    await seed(
      [grant('ga'), 'ra'],
      [grant('gb', { sub: 'bob' }), 'rb'],
      [grant('gc', { sub: 'bob', clientId: 'other' }), 'rc'],
    );
    await tokens.revokeGrantsOfUsers(db, ['alice'], 5000);
    expect([await grantRevokedAt('ga'), await revokedAt('ra')]).toEqual([5000, 5000]);
    expect([await grantRevokedAt('gb'), await grantRevokedAt('gc')]).toEqual([null, null]);
    await tokens.revokeGrantsOfClients(db, ['other'], 6000);
    expect([await grantRevokedAt('gc'), await revokedAt('rc')]).toEqual([6000, 6000]);
    expect([await grantRevokedAt('gb'), await revokedAt('rb')]).toEqual([null, null]);
  });

  it("revokes the grants listed users gave one client, with their refresh tokens; their other clients' grants and other users' stay", async () => {
    await seed(
      [grant('ga'), 'ra'],
      [grant('gb', { sub: 'bob' }), 'rb'],
      [grant('gc', { sub: 'bob', clientId: 'other' }), 'rc'],
      [grant('gd', { sub: 'carol' }), 'rd'],
    );
    await tokens.revokeGrantsOfClientUsers(db, 'app', ['alice', 'bob'], 7000);
    expect([
      await grantRevokedAt('ga'),
      await revokedAt('ra'),
      await grantRevokedAt('gb'),
      await revokedAt('rb'),
    ]).toEqual([7000, 7000, 7000, 7000]);
    expect([
      await grantRevokedAt('gc'),
      await revokedAt('rc'),
      await grantRevokedAt('gd'),
      await revokedAt('rd'),
    ]).toEqual([null, null, null, null]);
    // Already revoked: the first revocation time stays.
    await tokens.revokeGrantsOfClientUsers(db, 'app', ['alice'], 8000);
    expect(await grantRevokedAt('ga')).toBe(7000);
  });

  it('counts the active grants (not revoked, not expired) of the (sub, client) pairs asked for, and of no other pair', async () => {
    await seed(
      [grant('a1')],
      [grant('a2')],
      [grant('a3', { revokedAt: 1500 })],
      [grant('a4', { expiresAt: 2000 })],
      [grant('b1', { sub: 'bob' })],
      [grant('b2', { sub: 'bob', clientId: 'other' })],
      [grant('c1', { sub: 'carol', clientId: 'other' })],
    );
    const counted = await tokens.countActiveGrants(
      db,
      [
        { sub: 'alice', clientId: 'app' },
        { sub: 'bob', clientId: 'other' },
        { sub: 'alice', clientId: 'other' },
        { sub: 'carol', clientId: 'app' },
      ],
      2000,
    );
    const bySub = (a: { sub: string }, b: { sub: string }) => (a.sub < b.sub ? -1 : 1);
    expect(counted.sort(bySub)).toEqual([
      { sub: 'alice', clientId: 'app', count: 2 },
      { sub: 'bob', clientId: 'other', count: 1 },
    ]);
    expect(await tokens.countActiveGrants(db, [], 2000)).toEqual([]);
  });

  it('counts the active grants of hundreds of users at once', async () => {
    const subs = Array.from({ length: 450 }, (_, i) => `u-${i}`);
    for (const sub of subs) await tokens.insertGrant(db, grant(`g-${sub}`, { sub }));
    await tokens.insertGrant(db, grant('g-u-0-b', { sub: 'u-0' }));
    const counted = await tokens.countActiveGrants(
      db,
      subs.map((sub) => ({ sub, clientId: 'app' })),
      2000,
    );
    expect(counted.length).toBe(450);
    expect(counted.find((c) => c.sub === 'u-0')?.count).toBe(2);
    expect(counted.filter((c) => c.count === 1).length).toBe(449);
  });

  it("revokes a user's grants outside one session (those without a session too), with their refresh tokens; the kept session's and other users' stay", async () => {
    await seed(
      [grant('mine', { sessionId: 'keep' }), 'r-mine'],
      [grant('theirs', { sessionId: 'other' }), 'r-theirs'],
      [grant('none', { sessionId: null }), 'r-none'],
      [grant('bobs', { sub: 'bob', sessionId: 'other' }), 'r-bobs'],
      [grant('old', { sessionId: 'other', revokedAt: 1500 })],
    );
    await tokens.revokeGrantsOfUserOutsideSession(db, 'alice', 'keep', 7000);
    expect([
      await grantRevokedAt('theirs'),
      await revokedAt('r-theirs'),
      await grantRevokedAt('none'),
      await revokedAt('r-none'),
    ]).toEqual([7000, 7000, 7000, 7000]);
    expect([
      await grantRevokedAt('mine'),
      await revokedAt('r-mine'),
      await grantRevokedAt('bobs'),
      await revokedAt('r-bobs'),
    ]).toEqual([null, null, null, null]);
    expect(await grantRevokedAt('old')).toBe(1500);
  });

  it('revokes the grants of the ended sessions with their refresh tokens, except offline_access ones; other sessions stay', async () => {
    const online = ['openid', 'email'];
    await seed(
      [grant('s1-online', { sessionId: 's1', scopes: online }), 'r-s1-online'],
      [grant('s1-offline', { sessionId: 's1' }), 'r-s1-offline'],
      [grant('s2-online', { sessionId: 's2', scopes: ['openid', 'offline_accessory'] }), 'r-s2-online'],
      [grant('s3-online', { sessionId: 's3', scopes: online }), 'r-s3-online'],
      [grant('none', { sessionId: null, scopes: online }), 'r-none'],
      [grant('old', { sessionId: 's1', scopes: online, revokedAt: 1500 })],
    );
    await tokens.revokeGrantsOfSessions(db, ['s1', 's2'], 7000);
    expect([
      await grantRevokedAt('s1-online'),
      await revokedAt('r-s1-online'),
      await grantRevokedAt('s2-online'),
      await revokedAt('r-s2-online'),
    ]).toEqual([7000, 7000, 7000, 7000]);
    expect([
      await grantRevokedAt('s1-offline'),
      await revokedAt('r-s1-offline'),
      await grantRevokedAt('s3-online'),
      await revokedAt('r-s3-online'),
      await grantRevokedAt('none'),
      await revokedAt('r-none'),
    ]).toEqual([null, null, null, null, null, null]);
    expect(await grantRevokedAt('old')).toBe(1500);
    await tokens.revokeGrantsOfSessions(db, [], 8000);
  });

  it('finds the clients with a back-channel logout URI that got a grant in these sessions, each pair once, offline and revoked grants included', async () => {
    await cleanTables(s.database.db, ['clients']);
    await s.repositories.clients.insertMany(db, [
      clientRecord('rp', { backchannelLogoutUri: 'https://rp.example/bcl' }),
      clientRecord('rp2', { backchannelLogoutUri: 'https://rp2.example/bcl' }),
      clientRecord('quiet'),
    ]);
    await seed(
      [grant('a', { clientId: 'rp', sessionId: 's1' })],
      [grant('b', { clientId: 'rp', sessionId: 's1', scopes: ['openid'], revokedAt: 1500 })],
      [grant('c', { clientId: 'rp2', sessionId: 's1' })],
      [grant('d', { clientId: 'quiet', sessionId: 's1' })],
      [grant('e', { clientId: 'rp', sessionId: 's2' })],
      [grant('f', { clientId: 'rp', sessionId: 's3' })],
      [grant('g', { clientId: 'rp', sessionId: null })],
    );
    const found = await tokens.findBackchannelLogoutClients(db, ['s1', 's2', 'nobody']);
    const key = (pair: { sessionId: string; clientId: string }) => `${pair.sessionId} ${pair.clientId}`;
    expect(found.map(key).sort()).toEqual(['s1 rp', 's1 rp2', 's2 rp']);
    expect(await tokens.findBackchannelLogoutClients(db, [])).toEqual([]);
  });

  it("tells whether an access token is live: jti not revoked, and its grant (if any) present, not revoked, and the token's user and client", async () => {
    await seed([grant('live')], [grant('revoked')]);
    await tokens.revokeGrant(db, 'revoked', 2000);
    const of = (grantId: string, overrides: { sub?: string; clientId?: string } = {}) => ({
      grantId,
      sub: 'alice',
      clientId: 'app',
      ...overrides,
    });
    expect(await tokens.isAccessTokenLive(db, 'j1', null)).toBe(true);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('live'))).toBe(true);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('revoked'))).toBe(false);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('missing'))).toBe(false);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('live', { sub: 'mallory' }))).toBe(false);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('live', { clientId: 'other' }))).toBe(false);
    await tokens.revokeAccessToken(db, 'j1', 9000);
    // RFC 7009 §2.2: revoking again is not an error.
    await tokens.revokeAccessToken(db, 'j1', 9000);
    expect(await tokens.isAccessTokenLive(db, 'j1', null)).toBe(false);
    expect(await tokens.isAccessTokenLive(db, 'j1', of('live'))).toBe(false);
    expect(await tokens.isAccessTokenLive(db, 'j2', of('live'))).toBe(true);
  });

  it('lets exactly one of many concurrent group claims on separate connections win', async () => {
    await seed([grant('g1'), 'raced', 'other']);
    const claimed = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.tokens
            .claimRefreshTokens(
              storage.db,
              [claim('raced', `next-${i}`), ...(i === 0 ? [claim('other', 'other-next')] : [])],
              { ...times, now: 7000 + i },
            )
            .then((r) => r.claimed),
        ),
      ),
    );
    const winners = claimed.flatMap((found, i) => (found.has('raced') ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(claimed[0].has('other')).toBe(true);
    expect((await tokens.findRefreshToken(db, 'raced'))?.rotatedAt).toBe(7000 + winners[0]);
    const successors = await Promise.all(
      Array.from({ length: racers }, async (_, i) =>
        (await tokens.findRefreshToken(db, `next-${i}`)) ? `next-${i}` : null,
      ),
    );
    expect(successors.filter(Boolean)).toEqual([`next-${winners[0]}`]);
  });
}
