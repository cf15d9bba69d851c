import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { gitopsYaml, makeWorkdir, runIdp, type CliUser } from './gitops-cli-fixture.js';
import { knexTokenRepository } from '../../src/storage/knex/tokens.js';
import type { GrantRecord } from '../../src/model/index.js';

const client = (id: string, access = '') =>
  `  - client_id: ${id}\n    client_secret: \${WEB_SECRET}\n    redirect_uris: [https://${id}.example.com/callback]\n${access}`;

function grant(grantId: string, sub: string, clientId: string): GrantRecord {
  const now = Date.now();
  return {
    grantId,
    clientId,
    sub,
    scopes: ['openid'],
    authTime: now,
    amr: ['pwd'],
    claims: null,
    sessionId: null,
    sid: null,
    revokedAt: null,
    expiresAt: now + 3_600_000,
    createdAt: now,
  };
}

/** docs/gitops.md, "The access section": `idp diff` and `idp apply` show who gains or loses which app. */
describe.each(databaseKinds)('idp diff and apply with groups and access on %s', (kind) => {
  let t: TestDatabase;
  const work = makeWorkdir();
  const users: CliUser[] = [{ sub: 'alice', role: 'admin' }, { sub: 'bob' }, { sub: 'carol' }];
  const clients = [
    client('grafana', '    access:\n      groups: [sre]\n'),
    client('argo', '    access:\n      roles: [admin]\n      second_factor: required\n'),
    client('web'),
  ].join('');
  const yaml = (more: { users?: CliUser[]; clients?: string; groups?: string } = {}) =>
    gitopsYaml(t.config, more.users ?? users, {
      clients: more.clients ?? clients,
      groups: more.groups ?? '  - id: sre\n    name: Site reliability\n    members: [alice, bob@example.com]\n',
    });

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    work.write('idp.yaml', yaml());
    expect((await runIdp(['apply', '-c', 'idp.yaml'], work.dir)).code).toBe(0);
    for (const g of [grant('b1', 'bob', 'grafana'), grant('b2', 'bob', 'grafana'), grant('b3', 'bob', 'web')])
      await knexTokenRepository.insertGrant(t.tx, g);
  });
  afterAll(async () => {
    await t.destroy();
    work.cleanup();
  });

  it('shows the groups it creates and no access section for new users and clients', async () => {
    const fresh = await createTestDatabase(kind, { migrate: false });
    try {
      work.write(
        'fresh.yaml',
        gitopsYaml(fresh.config, users, { clients, groups: '  - id: sre\n    members: [bob]\n' }),
      );
      const result = await runIdp(['diff', '-c', 'fresh.yaml'], work.dir);
      const tail = result.stdout.slice(result.stdout.indexOf('+ group sre'));
      expect(tail).toEqual([
        '+ group sre',
        '    name: "sre"',
        '    description: null',
        '    upstream: []',
        '    members: ["bob"]',
        '',
        'Plan: 7 to create, 0 to update, 0 to remove.',
      ]);
      expect(result.stdout).toContain('    access: {"roles":["admin"],"second_factor":"required"}');
      expect(result.stdout).not.toContain('Access:');
    } finally {
      await fresh.destroy();
    }
  });

  it('a member moved: `~ group sre: + carol, - bob`, then the access section, in text and JSON', async () => {
    work.write(
      'moved.yaml',
      yaml({
        groups: '  - id: sre\n    name: Site reliability\n    members: [alice]\n',
        users: [users[0], users[1], { sub: 'carol', groups: ['sre'] }],
      }),
    );
    const text = await runIdp(['diff', '-c', 'moved.yaml', '--exit-code'], work.dir);
    expect(text).toMatchObject({ code: 2 });
    expect(text.stdout).toEqual([
      '~ group sre: + carol, - bob',
      '',
      'Access:',
      '- bob loses grafana (2 active grants)',
      '+ carol gains grafana',
      '',
      'Plan: 0 to create, 1 to update, 0 to remove.',
    ]);
    const json = JSON.parse(
      (await runIdp(['diff', '-c', 'moved.yaml', '--format', 'json'], work.dir)).stdout.join('\n'),
    );
    expect(json).toEqual({
      format_version: 1,
      changes: [
        { kind: 'group', action: 'update', key: 'sre', fields: [], members: { added: ['carol'], removed: ['bob'] } },
      ],
      summary: { create: 0, update: 1, remove: 0 },
      access: [
        { client_id: 'grafana', sub: 'bob', email: 'bob@example.com', change: 'lose', active_grants: 2 },
        { client_id: 'grafana', sub: 'carol', email: 'carol@example.com', change: 'gain', active_grants: null },
      ],
    });
  });

  it('a policy change and a role change list their losers and gainers', async () => {
    const policy = [
      client('grafana', '    access:\n      groups: [sre]\n      roles: [admin]\n'),
      client('argo', '    access:\n      roles: [admin]\n      second_factor: required\n'),
      client('web'),
    ].join('');
    work.write('policy.yaml', yaml({ clients: policy }));
    expect((await runIdp(['diff', '-c', 'policy.yaml'], work.dir)).stdout).toEqual([
      '~ client grafana',
      '    access: {"groups":["sre"]} → {"groups":["sre"],"roles":["admin"]}',
      '',
      'Access:',
      '- bob loses grafana (2 active grants)',
      '',
      'Plan: 0 to create, 1 to update, 0 to remove.',
    ]);
    work.write('roles.yaml', yaml({ users: [{ sub: 'alice' }, { sub: 'bob', role: 'admin' }, { sub: 'carol' }] }));
    expect((await runIdp(['diff', '-c', 'roles.yaml'], work.dir)).stdout).toEqual([
      '~ user alice',
      '    role: "admin" → "user"',
      '~ user bob',
      '    role: "user" → "admin"',
      '',
      'Access:',
      '- alice loses argo (0 active grants)',
      '+ bob gains argo',
      '',
      'Plan: 0 to create, 2 to update, 0 to remove.',
    ]);
  });

  it('apply prints the plan with its access section and revokes the losers’ grants; then nothing is left to do', async () => {
    work.write(
      'moved.yaml',
      yaml({ groups: '  - id: sre\n    name: Site reliability\n    members: [alice, carol]\n' }),
    );
    const applied = await runIdp(['apply', '-c', 'moved.yaml'], work.dir);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('- bob loses grafana (2 active grants)');
    expect(applied.stdout.at(-1)).toBe('Applied: 0 created, 1 updated, 0 removed.');
    expect(await t.db('grants').whereNull('revoked_at').pluck('grant_id')).toEqual(['b3']);
    expect(await runIdp(['diff', '-c', 'moved.yaml', '--exit-code'], work.dir)).toMatchObject({
      code: 0,
      stdout: ['No changes.'],
    });
  });
});
