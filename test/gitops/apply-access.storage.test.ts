import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { applyConfig, hashClientSecret, type AccessChange, type Change } from '../../src/gitops/index.js';
import { openStorage } from '../../src/app.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { knexGroupRepository } from '../../src/storage/knex/groups.js';
import { knexTokenRepository } from '../../src/storage/knex/tokens.js';
import type { Clock } from '../../src/clock.js';
import type { Config, GroupConfig } from '../../src/config/types.js';
import type { ClientAccess, ClientRecord, GrantRecord, UserRecord } from '../../src/model/index.js';

const NOW = 1_700_000_000_000;
const clock: Clock = { now: () => NOW };

function group(id: string, members: string[], overrides: Partial<GroupConfig> = {}): GroupConfig {
  return { id, name: id, description: null, upstream: [], members: [...members].sort(), ...overrides };
}

function access(rule: Partial<ClientAccess>): ClientAccess {
  return { groups: null, roles: null, secondFactor: null, ...rule };
}

function databaseUser(sub: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    sub,
    managedBy: 'database',
    email: `${sub}@example.com`,
    role: 'user',
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

function databaseClient(clientId: string, rule: ClientAccess): ClientRecord {
  const { clientSecret, clientSecretHash, ...fields } = testClient({ clientId, access: rule });
  return {
    ...fields,
    secretHash: clientSecretHash ?? hashClientSecret(clientSecret as string),
    managedBy: 'database',
    createdAt: 1,
    updatedAt: 1,
  };
}

function grant(grantId: string, sub: string, clientId: string, overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    grantId,
    clientId,
    sub,
    scopes: ['openid', 'offline_access'],
    authTime: NOW - 1000,
    amr: ['pwd'],
    sessionId: null,
    sid: null,
    claims: null,
    revokedAt: null,
    expiresAt: NOW + 3_600_000,
    createdAt: NOW - 1000,
    ...overrides,
  };
}

const lines = (access: AccessChange[]) =>
  access.map((a) => `${a.change} ${a.clientId} ${a.sub}${a.activeGrants === null ? '' : ` (${a.activeGrants})`}`);
const summaryOf = (changes: Change[]) => changes.map((c) => `${c.action} ${c.kind} ${c.key}`);

/**
 * docs/gitops.md, "Groups and memberships" and "The access section": groups
 * and config memberships planned and applied like users; who gains or loses
 * which client, database users included; the losers' grants revoked by
 * apply, and only theirs.
 */
describe.each(databaseKinds)('groups, memberships and access at apply on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    for (const table of ['group_members', 'groups', 'refresh_tokens', 'grants', 'users', 'clients', 'events'])
      await t.db(table).delete();
  });

  const users = [testUser({ sub: 'alice', role: 'admin' }), testUser({ sub: 'bob' }), testUser({ sub: 'carol' })];
  const clients = [
    testClient({ clientId: 'grafana', access: access({ groups: ['sre'] }) }),
    testClient({ clientId: 'argo', access: access({ roles: ['admin'] }) }),
    testClient({ clientId: 'web' }),
  ];
  const base = testConfig({ users, clients, groups: [group('sre', ['alice', 'bob']), group('dev', ['carol'])] });
  const withConfig = (overrides: Partial<Config>) => testConfig({ ...base, ...overrides });

  async function activeGrantIds(): Promise<string[]> {
    return (await t.db('grants').whereNull('revoked_at').orderBy('grant_id').pluck('grant_id')) as string[];
  }
  async function configMembers(groupId: string): Promise<string[]> {
    return (await knexGroupRepository.listMemberships(t.tx, ['config']))
      .filter((m) => m.groupId === groupId)
      .map((m) => m.sub);
  }
  async function events(type: string): Promise<string[]> {
    const rows = (await t.db('events').where({ type }).orderBy('id')) as {
      actor: string;
      subject: string;
      detail: string;
    }[];
    return rows.map((r) => `${r.actor} ${r.subject} ${JSON.parse(r.detail).group}`);
  }

  it('creates groups with their fields and config members, records the memberships, then has nothing to do', async () => {
    const first = await applyConfig(t.storage, base, { clock });
    expect(first.plan.changes.filter((c) => c.kind === 'group')).toEqual([
      {
        kind: 'group',
        action: 'create',
        key: 'dev',
        fields: [
          { field: 'name', old: null, new: 'dev' },
          { field: 'description', old: null, new: null },
          { field: 'upstream', old: null, new: [] },
          { field: 'members', old: null, new: ['carol'] },
        ],
      },
      {
        kind: 'group',
        action: 'create',
        key: 'sre',
        fields: [
          { field: 'name', old: null, new: 'sre' },
          { field: 'description', old: null, new: null },
          { field: 'upstream', old: null, new: [] },
          { field: 'members', old: null, new: ['alice', 'bob'] },
        ],
      },
    ]);
    // Kinds in the order of the config: groups after users, before terms.
    expect(summaryOf(first.plan.changes)).toEqual([
      'create client argo',
      'create client grafana',
      'create client web',
      'create user alice',
      'create user bob',
      'create user carol',
      'create group dev',
      'create group sre',
    ]);
    // New users and clients are not gains: the access section is about users and clients that were there.
    expect(first.plan.access).toEqual([]);
    expect(await configMembers('sre')).toEqual(['alice', 'bob']);
    expect(await knexGroupRepository.findById(t.tx, 'sre')).toMatchObject({ name: 'sre', createdAt: NOW });
    expect(await events('group.member_added')).toEqual(['apply alice sre', 'apply bob sre', 'apply carol dev']);

    // The same file, members listed in another order: no change.
    const reordered = withConfig({
      groups: [group('dev', ['carol']), { ...group('sre', []), members: ['bob', 'alice'] }],
    });
    const second = await applyConfig(t.storage, reordered, { clock });
    expect(second).toMatchObject({ applied: false, plan: { changes: [], access: [] } });
  });

  it('shows the access rule in the file form, and a second factor alone changes no one', async () => {
    await applyConfig(t.storage, base, { clock });
    const stricter = withConfig({
      clients: [
        testClient({ clientId: 'grafana', access: access({ groups: ['sre'], secondFactor: 'required' }) }),
        clients[1],
        testClient({ clientId: 'web', access: access({}) }),
      ],
    });
    const plan = (await applyConfig(t.storage, stricter, { clock, dryRun: true })).plan;
    expect(plan.changes).toEqual([
      {
        kind: 'client',
        action: 'update',
        key: 'grafana',
        fields: [{ field: 'access', old: { groups: ['sre'] }, new: { groups: ['sre'], second_factor: 'required' } }],
      },
      { kind: 'client', action: 'update', key: 'web', fields: [{ field: 'access', old: null, new: {} }] },
    ]);
    expect(plan.access).toEqual([]);
    const created = await applyConfig(
      t.storage,
      withConfig({ clients: [testClient({ clientId: 'k8s', access: access({ roles: ['admin'] }) })] }),
      { clock, dryRun: true },
    );
    expect(created.plan.changes.find((c) => c.key === 'k8s')?.fields).toContainEqual({
      field: 'access',
      old: null,
      new: { roles: ['admin'] },
    });
  });

  it('moves a member: `~ group sre: + carol, - bob`, bob loses grafana with his grants counted and revoked, carol gains it', async () => {
    await applyConfig(t.storage, base, { clock });
    for (const g of [
      grant('bob-grafana-1', 'bob', 'grafana'),
      grant('bob-grafana-2', 'bob', 'grafana'),
      grant('bob-grafana-old', 'bob', 'grafana', { expiresAt: NOW - 1 }),
      grant('bob-web', 'bob', 'web'),
      grant('alice-grafana', 'alice', 'grafana'),
      grant('carol-web', 'carol', 'web'),
    ])
      await knexTokenRepository.insertGrant(t.tx, g);
    await knexTokenRepository.insertRefreshToken(t.tx, {
      tokenHash: 'bob-refresh',
      grantId: 'bob-grafana-1',
      clientId: 'grafana',
      sub: 'bob',
      scopes: ['openid', 'offline_access'],
      expiresAt: NOW + 3_600_000,
      rotatedAt: null,
      revokedAt: null,
      createdAt: NOW - 1000,
    });
    const moved = withConfig({ groups: [group('sre', ['alice', 'carol']), group('dev', ['carol'])] });

    const dry = await applyConfig(t.storage, moved, { clock, dryRun: true });
    expect(dry.plan.changes).toEqual([
      { kind: 'group', action: 'update', key: 'sre', fields: [], members: { added: ['carol'], removed: ['bob'] } },
    ]);
    expect(dry.plan.access).toEqual([
      { clientId: 'grafana', sub: 'bob', email: 'bob@example.com', change: 'lose', activeGrants: 2 },
      { clientId: 'grafana', sub: 'carol', email: 'carol@example.com', change: 'gain', activeGrants: null },
    ]);
    expect(await activeGrantIds()).toHaveLength(6);

    const applied = await applyConfig(t.storage, moved, { clock });
    expect(applied.plan.access).toEqual(dry.plan.access);
    // Exactly bob's grafana grants (the expired one was no longer active anyway); his web grant, alice's and carol's stay.
    expect(await activeGrantIds()).toEqual(['alice-grafana', 'bob-web', 'carol-web']);
    expect((await knexTokenRepository.findRefreshToken(t.tx, 'bob-refresh'))?.revokedAt).not.toBeNull();
    expect(await configMembers('sre')).toEqual(['alice', 'carol']);
    expect(await events('group.member_added')).toContain('apply carol sre');
    expect(await events('group.member_removed')).toEqual(['apply bob sre']);
    expect((await applyConfig(t.storage, moved, { clock })).plan.changes).toEqual([]);
  });

  it('a group field change and a member change are one update; database memberships stay through it', async () => {
    await knexUserRepository.insert(t.tx, databaseUser('dora'));
    await applyConfig(t.storage, base, { clock });
    await knexGroupRepository.addMemberships(
      t.tx,
      [
        { groupId: 'sre', sub: 'dora', source: 'database', provider: null },
        { groupId: 'sre', sub: 'dora', source: 'upstream', provider: 'corp' },
      ],
      NOW,
    );
    const renamed = withConfig({
      groups: [
        group('sre', ['alice'], {
          name: 'Site reliability',
          description: 'On call',
          upstream: [
            { provider: 'corp', claim: 'groups', value: 'sre' },
            { provider: 'github', team: 'acme/sre' },
          ],
        }),
        group('dev', ['carol']),
      ],
    });
    const result = await applyConfig(t.storage, renamed, { clock });
    expect(result.plan.changes).toEqual([
      {
        kind: 'group',
        action: 'update',
        key: 'sre',
        fields: [
          { field: 'name', old: 'sre', new: 'Site reliability' },
          { field: 'description', old: null, new: 'On call' },
          {
            field: 'upstream',
            old: [],
            new: [
              { provider: 'corp', claim: 'groups', value: 'sre' },
              { provider: 'github', team: 'acme/sre' },
            ],
          },
        ],
        members: { added: [], removed: ['bob'] },
      },
    ]);
    expect(lines(result.plan.access)).toEqual(['lose grafana bob (0)']);
    expect(await knexGroupRepository.findById(t.tx, 'sre')).toMatchObject({
      name: 'Site reliability',
      description: 'On call',
      createdAt: NOW,
    });
    expect((await knexGroupRepository.membershipsOf(t.tx, ['dora'])).map((m) => `${m.groupId} ${m.source}`)).toEqual([
      'sre database',
      'sre upstream',
    ]);

    // An upstream rule written with its keys in another order is the same rule.
    const reordered = withConfig({
      groups: [
        {
          ...renamed.groups[0],
          upstream: [
            { value: 'sre', claim: 'groups', provider: 'corp' },
            { team: 'acme/sre', provider: 'github' },
          ],
        },
        renamed.groups[1],
      ],
    });
    expect((await applyConfig(t.storage, reordered, { clock })).plan.changes).toEqual([]);
  });

  it('a changed rule compares every live user, database users and their memberships included', async () => {
    await knexUserRepository.insert(t.tx, databaseUser('dora'));
    await knexUserRepository.insert(t.tx, databaseUser('erin'));
    await knexUserRepository.insert(t.tx, databaseUser('gone', { deletedAt: 5 }));
    await applyConfig(t.storage, base, { clock });
    await knexGroupRepository.addMemberships(
      t.tx,
      [
        { groupId: 'dev', sub: 'dora', source: 'database', provider: null },
        { groupId: 'dev', sub: 'gone', source: 'database', provider: null },
      ],
      NOW,
    );
    await knexTokenRepository.insertGrant(t.tx, grant('erin-web', 'erin', 'web'));
    await knexTokenRepository.insertGrant(t.tx, grant('alice-web', 'alice', 'web'));
    // grafana opens to dev too, argo loses its rule, web gets one: only dev members and admins.
    const policy = withConfig({
      clients: [
        testClient({ clientId: 'grafana', access: access({ groups: ['sre', 'dev'] }) }),
        testClient({ clientId: 'argo' }),
        testClient({ clientId: 'web', access: access({ groups: ['dev'], roles: ['user'] }) }),
      ],
    });
    const result = await applyConfig(t.storage, policy, { clock });
    expect(lines(result.plan.access)).toEqual([
      'gain argo bob',
      'gain argo carol',
      'gain argo dora',
      'gain argo erin',
      'gain grafana carol',
      'gain grafana dora',
      'lose web alice (1)',
      'lose web bob (0)',
      'lose web erin (1)',
    ]);
    expect(result.plan.access.find((a) => a.sub === 'dora')?.email).toBe('dora@example.com');
    expect(await activeGrantIds()).toEqual([]);
  });

  it('a role change of a config user gains or loses the clients that name roles', async () => {
    await applyConfig(t.storage, base, { clock });
    await knexTokenRepository.insertGrant(t.tx, grant('alice-argo', 'alice', 'argo'));
    await knexTokenRepository.insertGrant(t.tx, grant('alice-grafana', 'alice', 'grafana'));
    const roles = withConfig({
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob', role: 'admin' }), users[2]],
    });
    const result = await applyConfig(t.storage, roles, { clock });
    expect(lines(result.plan.access)).toEqual(['lose argo alice (1)', 'gain argo bob']);
    expect(await activeGrantIds()).toEqual(['alice-grafana']);
  });

  it('removes a group that left the file with all its memberships; its members lose what it gave them', async () => {
    await knexUserRepository.insert(t.tx, databaseUser('dora'));
    await knexUserRepository.insert(t.tx, databaseUser('gone', { deletedAt: 5 }));
    await applyConfig(t.storage, withConfig({ groups: [...base.groups, group('ops', [])] }), { clock });
    await knexGroupRepository.addMemberships(
      t.tx,
      [
        { groupId: 'sre', sub: 'dora', source: 'database', provider: null },
        { groupId: 'sre', sub: 'dora', source: 'upstream', provider: 'corp' },
        { groupId: 'sre', sub: 'gone', source: 'database', provider: null },
      ],
      NOW,
    );
    await knexTokenRepository.insertGrant(t.tx, grant('dora-grafana', 'dora', 'grafana'));
    const withoutSre = withConfig({
      groups: [group('dev', ['carol'])],
      clients: [testClient({ clientId: 'grafana', access: access({ groups: ['dev'] }) }), clients[1], clients[2]],
    });
    const result = await applyConfig(t.storage, withoutSre, { clock });
    expect(summaryOf(result.plan.changes)).toEqual(['update client grafana', 'remove group ops', 'remove group sre']);
    expect(lines(result.plan.access)).toEqual([
      'lose grafana alice (0)',
      'lose grafana bob (0)',
      'lose grafana dora (1)',
      'gain grafana carol',
    ]);
    expect(await knexGroupRepository.findById(t.tx, 'sre')).toBeNull();
    expect(await knexGroupRepository.membershipsOf(t.tx, ['dora', 'gone'])).toEqual([]);
    // One event per member who left, whatever the sources of the membership.
    expect(await events('group.member_removed')).toEqual([
      'apply alice sre',
      'apply bob sre',
      'apply dora sre',
      'apply gone sre',
    ]);
    expect(await activeGrantIds()).toEqual([]);
  });

  it("a database-managed client's rule is compared too; a removed group alone, with no client left, changes no one's access", async () => {
    await applyConfig(t.storage, base, { clock });
    await t.storage.repositories.clients.insertMany(t.tx, [databaseClient('wiki', access({ groups: ['sre'] }))]);
    await knexTokenRepository.insertGrant(t.tx, grant('bob-wiki', 'bob', 'wiki'));
    const moved = await applyConfig(
      t.storage,
      withConfig({ groups: [group('sre', ['alice']), group('dev', ['carol'])] }),
      {
        clock,
      },
    );
    expect(lines(moved.plan.access)).toEqual(['lose grafana bob (0)', 'lose wiki bob (1)']);
    expect(await activeGrantIds()).toEqual([]);

    const noRules = withConfig({ clients: [testClient({ clientId: 'web' })], groups: [group('dev', ['carol'])] });
    await t.db('clients').where({ client_id: 'wiki' }).delete();
    const removed = await applyConfig(t.storage, noRules, { clock });
    expect(summaryOf(removed.plan.changes)).toEqual([
      'remove client argo',
      'remove client grafana',
      'remove group sre',
    ]);
    expect(removed.plan.access).toEqual([]);
  });

  it('a config user removed from the file loses its config memberships; removed users and clients are not in the access section', async () => {
    await applyConfig(t.storage, base, { clock });
    await knexTokenRepository.insertGrant(t.tx, grant('bob-grafana', 'bob', 'grafana'));
    const pruned = withConfig({
      users: [users[0], users[2]],
      clients: [clients[1], clients[2]],
      groups: [group('sre', ['alice']), group('dev', ['carol'])],
    });
    const result = await applyConfig(t.storage, pruned, { clock });
    expect(result.plan.changes.find((c) => c.kind === 'group')).toMatchObject({
      key: 'sre',
      members: { added: [], removed: ['bob'] },
    });
    expect(result.plan.access).toEqual([]);
    expect(await configMembers('sre')).toEqual(['alice']);
    expect((await knexUserRepository.findBySub(t.tx, 'bob'))?.deletedAt).toBe(NOW);
    expect(await activeGrantIds()).toEqual([]);
  });

  it('a restored user, a new user and a new member who is new are not in the access section', async () => {
    await applyConfig(t.storage, withConfig({ users: [users[0], users[1]], groups: [group('sre', ['alice'])] }), {
      clock,
    });
    await applyConfig(t.storage, withConfig({ users: [users[0]], groups: [group('sre', ['alice'])] }), { clock });
    const result = await applyConfig(t.storage, withConfig({ groups: [group('sre', ['alice', 'bob', 'carol'])] }), {
      clock,
    });
    expect(summaryOf(result.plan.changes)).toEqual(['update user bob', 'create user carol', 'update group sre']);
    expect(result.plan.access).toEqual([]);
  });

  it('serialises two applies racing on memberships: one consistent state, the second plans against the first', async () => {
    await applyConfig(t.storage, base, { clock });
    const many = Array.from({ length: 300 }, (_, i) => testUser({ sub: `m-${String(i).padStart(3, '0')}` }));
    const left = withConfig({
      users: [...users, ...many],
      groups: [
        group(
          'sre',
          many.map((u) => u.sub),
        ),
      ],
    });
    const right = withConfig({ users: [...users, ...many], groups: [group('sre', ['alice', 'carol'])] });
    const other = openStorage(t.config);
    try {
      const results = await Promise.all([
        applyConfig(t.storage, left, { clock }),
        applyConfig(other, right, { clock }),
      ]);
      expect(results.every((r) => r.applied)).toBe(true);
      const members = await configMembers('sre');
      expect([many.map((u) => u.sub), ['alice', 'carol']]).toContainEqual(members);
      const last = members.length === 2 ? right : left;
      expect((await applyConfig(t.storage, last, { clock })).plan.changes).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('lists who gains or loses a forward-auth app, by host, with no grants to count or revoke', async () => {
    const headers = { user: 'Remote-User', email: 'Remote-Email', name: 'Remote-Name', groups: 'Remote-Groups' };
    const forwardAuth = {
      cookieDomain: null,
      apps: [
        { host: 'ops.example.com', pathPrefix: '/', access: access({ groups: ['sre'] }), headers },
        { host: 'ops.example.com', pathPrefix: '/admin', access: access({ roles: ['admin'] }), headers },
        { host: 'wiki.example.com', pathPrefix: '/', access: null, headers },
      ],
    };
    await applyConfig(t.storage, withConfig({ forwardAuth }), { clock });
    const result = await applyConfig(
      t.storage,
      withConfig({
        forwardAuth,
        users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' }), testUser({ sub: 'carol', role: 'admin' })],
        groups: [group('sre', ['alice', 'carol']), group('dev', [])],
      }),
      { clock },
    );
    expect(lines(result.plan.access)).toEqual([
      'lose argo alice (0)',
      'gain argo carol',
      'lose grafana bob (0)',
      'gain grafana carol',
      'lose ops.example.com bob',
      'gain ops.example.com carol',
      'lose ops.example.com/admin alice',
      'gain ops.example.com/admin carol',
    ]);
  });
});
