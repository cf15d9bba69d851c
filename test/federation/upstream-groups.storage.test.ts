import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { CookieJar } from '../e2e/support/cookie-jar.js';
import { createEventLog } from '../../src/events/index.js';
import { createUpstreamMemberships } from '../../src/federation/upstream-memberships.js';
import { systemClock } from '../../src/clock.js';
import { seedUser } from '../support/test-app.js';
import { startGroupsFixture, type GroupsFixture } from './support/groups-fixture.js';
import { authorizePath, walkUpstream } from './support/walk-upstream.js';

/**
 * Issue 23, upstream group mapping: at each sign-in through a provider the
 * user's `upstream` memberships of that provider become what it asserts
 * (a claim of an OpenID upstream; GitHub teams read page by page), with
 * their events; memberships of other providers and of the admin API stay;
 * a config-managed user gets none. Real upstream servers, the real idp, on
 * each database.
 */
describe.each(databaseKinds)('upstream group mapping on %s', (kind) => {
  let f: GroupsFixture;
  const url = () => f.idp.url;
  beforeAll(async () => {
    f = await startGroupsFixture(kind);
  });
  afterAll(() => f?.stop());
  afterEach(() => {
    f.github.behaviour.teams = 'none';
  });

  /** Signs in through `provider` in a fresh browser; returns where idp sent it and whether it holds a session. */
  async function signIn(provider: string): Promise<{ landed: URL; session: boolean }> {
    const jar = new CookieJar();
    const landed = await walkUpstream(jar, url(), authorizePath(provider, { return_to: '/account' }));
    return { landed, session: jar.has('session') };
  }

  it('an OpenID upstream asserting groups puts the user in the mapped group; a sign-in asserting nothing takes it away', async () => {
    f.corpAccounts.ada.groups = ['sre', 'x'];
    f.oidc.signInAs('ada');
    expect((await signIn('corp')).landed.pathname).toBe('/account');
    expect(f.oidc.authorizationRequests.at(-1)!.get('scope')).toBe('openid email groups');
    const ada = await f.subOf('ada@example.com');
    expect(await f.memberships(ada)).toEqual([['sre', 'upstream', 'corp']]);

    // The same upstream through another provider, and the admin API's membership: not corp's to change.
    expect((await signIn('corp-partners')).landed.pathname).toBe('/account');
    await f.idp.database.storage.repositories.groups.addMemberships(
      f.idp.database.tx,
      [{ groupId: 'ops', sub: ada, source: 'database', provider: null }],
      Date.now(),
    );
    expect(await f.memberships(ada)).toEqual([
      ['ops', 'database', ''],
      ['sre', 'upstream', 'corp'],
      ['sre', 'upstream', 'corp-partners'],
    ]);

    delete f.corpAccounts.ada.groups;
    const { landed, session } = await signIn('corp');
    expect([landed.pathname, session]).toEqual(['/account', true]);
    expect(await f.memberships(ada)).toEqual([
      ['ops', 'database', ''],
      ['sre', 'upstream', 'corp-partners'],
    ]);

    expect((await f.memberEvents()).filter((e) => e.subject === ada)).toEqual([
      { type: 'group.member_added', actor: 'upstream', subject: ada, detail: { group: 'sre', provider: 'corp' } },
      {
        type: 'group.member_added',
        actor: 'upstream',
        subject: ada,
        detail: { group: 'sre', provider: 'corp-partners' },
      },
      { type: 'group.member_removed', actor: 'upstream', subject: ada, detail: { group: 'sre', provider: 'corp' } },
    ]);
  });

  it('a claim that is not strings, or 10,000 of them, maps what matches, ignores the rest, and the sign-in succeeds', async () => {
    f.oidc.signInAs('ada');
    const ada = await f.subOf('ada@example.com');
    const ofCorp = async () => (await f.memberships(ada)).filter(([, , provider]) => provider === 'corp');
    const cases: [unknown, string[]][] = [
      [7, []],
      [{ sre: true }, []],
      [null, []],
      [[1, null, { group: 'sre' }, ['sre'], 'dev'], ['dev']],
      ['sre', ['sre']],
      [
        [...Array.from({ length: 10_000 }, (_, i) => `team-${i}`), 'dev', 'sre'],
        ['dev', 'sre'],
      ],
    ];
    for (const [groups, expected] of cases) {
      f.corpAccounts.ada.groups = groups;
      const { landed, session } = await signIn('corp');
      expect([landed.pathname, session], JSON.stringify(groups).slice(0, 40)).toEqual(['/account', true]);
      expect(await ofCorp()).toEqual(expected.map((group) => [group, 'upstream', 'corp']));
    }
  });

  it('GitHub: the teams are read page by page and matched as org/slug in any case; a team left is a group left', async () => {
    f.github.signInAs('grace');
    f.github.teamRequests.length = 0;
    expect((await signIn('github')).landed.pathname).toBe('/account');
    expect(f.github.teamRequests.map((q) => [q.get('per_page'), q.get('page')])).toEqual([
      ['100', '1'],
      ['100', '2'],
    ]);
    const grace = await f.subOf('grace@users.example');
    expect(await f.memberships(grace)).toEqual([
      ['platform', 'upstream', 'github'],
      ['sre', 'upstream', 'github'],
    ]);

    const account = f.githubAccounts.find((a) => a.login === 'grace')!;
    account.teams = account.teams!.filter((team) => team !== 'ACME/sre');
    await signIn('github');
    expect(await f.memberships(grace)).toEqual([['platform', 'upstream', 'github']]);
    expect((await f.memberEvents()).filter((e) => e.subject === grace).map((e) => [e.type, e.detail.group])).toEqual([
      ['group.member_added', 'platform'],
      ['group.member_added', 'sre'],
      ['group.member_removed', 'sre'],
    ]);
  });

  it('GitHub: a provider no team rule names never reads the teams', async () => {
    f.github.signInAs('hopper');
    f.github.teamRequests.length = 0;
    expect((await signIn('github-plain')).landed.pathname).toBe('/account');
    expect(f.github.teamRequests).toEqual([]);
    expect(await f.memberships(await f.subOf('hopper@users.example'))).toEqual([]);
  });

  it('GitHub: teams that cannot be read fail the sign-in with UPSTREAM_ERROR and leave the memberships as they were', async () => {
    f.github.signInAs('grace');
    const grace = await f.subOf('grace@users.example');
    const before = await f.memberships(grace);
    for (const how of ['error_status', 'non_json'] as const) {
      f.github.behaviour.teams = how;
      const { landed, session } = await signIn('github');
      expect([landed.pathname, landed.searchParams.get('error'), session], how).toEqual([
        '/login',
        'UPSTREAM_ERROR',
        false,
      ]);
    }
    expect(await f.memberships(grace)).toEqual(before);
  });

  it("a config-managed user's memberships come only from the file: an upstream's groups add none", async () => {
    await f.idp.database.storage.repositories.connections.insert(f.idp.database.tx, {
      providerId: 'corp',
      subject: 'bob-corp',
      sub: 'bob',
      email: 'bob@example.com',
      linkedAt: Date.now(),
    });
    f.oidc.signInAs('bob-corp');
    const { landed, session } = await signIn('corp');
    expect([landed.pathname, session]).toEqual(['/account', true]);
    expect(await f.memberships('bob')).toEqual([]);
    expect((await f.memberEvents()).filter((e) => e.subject === 'bob')).toEqual([]);
  });

  it('a group an apply removed after the rules were read is not joined; the rest of the assertion is', async () => {
    const { storage, tx } = f.idp.database;
    const user = await seedUser(f.idp, { sub: 'late' });
    const memberships = createUpstreamMemberships({
      db: tx,
      transaction: (work) => storage.transaction(work),
      groups: storage.repositories.groups,
      events: createEventLog({ storage, clock: systemClock }),
      clock: systemClock,
    });
    const rules = [
      { groupId: 'gone', rule: { provider: 'corp', claim: 'groups', value: 'sre' } },
      { groupId: 'dev', rule: { provider: 'corp', claim: 'groups', value: 'sre' } },
    ];
    await memberships.replace(
      user,
      'corp',
      rules,
      { claims: { groups: ['sre'] }, teams: [] },
      { clientAddress: '127.0.0.1' },
    );
    expect(await f.memberships('late')).toEqual([['dev', 'upstream', 'corp']]);
  });
});
