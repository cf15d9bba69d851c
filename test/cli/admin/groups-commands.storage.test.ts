import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { databaseKinds } from '../../support/databases.js';
import { testClient, testUser } from '../../support/config-fixture.js';
import { createTestApp, seedUser, testPassword, type TestApp } from '../../support/test-app.js';
import { applyConfig } from '../../../src/gitops/index.js';

const adminEmail = 'root@example.com';

/**
 * `idp admin groups …`, `idp admin users groups` and `idp admin access
 * check` against the real server (createApp on a random port) on both
 * engines, in-process through main().
 */
describe.each(databaseKinds)('idp admin groups and access against a real server on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let home: string;

  const run = async (argv: string[], columns = 100) => {
    const output = { ...createCapturedOutput(), columns };
    const code = await main(['admin', ...argv], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([]),
    });
    return { code, stdout: output.stdout, stderr: output.stderr };
  };
  const json = async (argv: string[]) => {
    const result = await run([...argv, '--json']);
    expect(result.stderr).toEqual([]);
    return JSON.parse(result.stdout.join('\n'));
  };
  const groupEvents = async () =>
    (await t.database.db('events').whereIn('type', ['group.member_added', 'group.member_removed']).orderBy('id')).map(
      (row: Record<string, string>) => `${row.type} ${row.actor} ${row.subject} ${row.detail}`,
    );

  beforeAll(async () => {
    t = await createTestApp(kind, {
      users: [
        testUser({ sub: 'root-admin', email: adminEmail, role: 'admin' }),
        testUser({ sub: 'carol', email: 'carol@example.com' }),
      ],
      clients: [
        testClient({ clientId: 'grafana', access: { groups: ['sre'], roles: null, secondFactor: null } }),
        testClient({ clientId: 'wiki' }),
      ],
    });
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'bob-sub', email: 'Bob@example.com' });
    const now = Date.now();
    const groups = t.database.storage.repositories.groups;
    await groups.save(t.database.tx, {
      id: 'sre',
      name: 'Site reliability',
      description: 'On call, day and night',
      upstream: [],
      createdAt: now,
      updatedAt: now,
    });
    await groups.save(t.database.tx, {
      id: 'dev',
      name: 'dev',
      description: null,
      upstream: [],
      createdAt: now,
      updatedAt: now,
    });
    await groups.addMemberships(
      t.database.tx,
      [{ groupId: 'sre', sub: 'carol', source: 'config', provider: null }],
      now,
    );
    url = await t.app.start();
    home = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-groups-'));
    const login = await main(['admin', 'login', '--url', url, '--email', adminEmail, '--password-stdin'], {
      output: createCapturedOutput(),
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([`${testPassword}\n`]),
    });
    expect(login).toBe(0);
  });
  afterAll(async () => {
    await t?.destroy();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('groups list prints a table, and --json the API answer', async () => {
    const list = await run(['groups', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout[0]).toMatch(/^ID\s+NAME\s+MEMBERS\s+DESCRIPTION$/);
    expect(list.stdout[1]).toMatch(/^dev\s+dev\s+0$/);
    expect(list.stdout[2]).toMatch(/^sre\s+Site reliability\s+1\s+On call, day and night$/);
    // A narrow terminal drops the description first.
    expect((await run(['groups', 'list'], 30)).stdout[0]).toMatch(/^ID\s+NAME\s+MEMBERS$/);
    expect(await json(['groups', 'list'])).toEqual({
      groups: [
        { id: 'dev', name: 'dev', description: null, member_count: 0 },
        { id: 'sre', name: 'Site reliability', description: 'On call, day and night', member_count: 1 },
      ],
    });
  });

  it('groups add, members, users groups, access check and groups remove, by e-mail and by sub', async () => {
    const denied = await run(['access', 'check', '--client', 'grafana', '--user', 'bob@example.com']);
    expect(denied).toEqual({
      code: 1,
      stdout: ['denied: Bob@example.com (bob-sub) may not use grafana', '  - not a member of any of the groups sre'],
      stderr: [],
    });

    expect(await run(['groups', 'add', 'sre', 'bob@example.com'])).toEqual({
      code: 0,
      stdout: ['Bob@example.com (bob-sub) is in group sre'],
      stderr: [],
    });
    // Idempotent: the second add succeeds and records nothing.
    expect(await json(['groups', 'add', 'sre', 'bob-sub'])).toEqual({
      groups: [{ id: 'sre', name: 'Site reliability', source: 'database' }],
    });
    expect(await groupEvents()).toEqual(['group.member_added root-admin bob-sub {"group":"sre"}']);

    const members = await run(['groups', 'members', 'sre']);
    expect(members.code).toBe(0);
    expect(members.stdout[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY/);
    expect(members.stdout[1]).toMatch(/^Bob@example.com\s+bob-sub\s+user\s+database/);
    expect(members.stdout[2]).toMatch(/^carol@example.com\s+carol\s+user\s+config/);
    expect(members.stdout.slice(3)).toEqual(['', 'page 1 of 1 · 2 users']);
    const page = await json(['groups', 'members', 'sre', '--page', '2', '--page-size', '1']);
    expect(page.pagination).toEqual({ page: 2, page_size: 1, total: 2 });
    expect(page.users.map((u: { sub: string }) => u.sub)).toEqual(['carol']);
    expect(await run(['groups', 'members', 'dev'])).toEqual({
      code: 0,
      stdout: ['group dev has no members'],
      stderr: [],
    });

    const groups = await run(['users', 'groups', 'carol@example.com']);
    expect(groups.code).toBe(0);
    expect(groups.stdout[0]).toMatch(/^GROUP\s+NAME\s+SOURCE$/);
    expect(groups.stdout[1]).toMatch(/^sre\s+Site reliability\s+config$/);
    expect(await json(['users', 'groups', 'bob-sub'])).toEqual({
      groups: [{ id: 'sre', name: 'Site reliability', source: 'database' }],
    });
    expect(await run(['users', 'groups', 'root-admin'])).toEqual({ code: 0, stdout: ['in no group'], stderr: [] });

    expect(await run(['access', 'check', '--client', 'grafana', '--user', 'bob-sub'])).toEqual({
      code: 0,
      stdout: ['allowed: Bob@example.com (bob-sub) may use grafana', '  - member of group sre'],
      stderr: [],
    });
    const allowedJson = await run(['access', 'check', '--client', 'wiki', '--user', 'bob-sub', '--json']);
    expect(allowedJson.code).toBe(0);
    expect(JSON.parse(allowedJson.stdout.join('\n'))).toEqual({
      allowed: true,
      reasons: ['the client has no access rule: every active user'],
    });

    expect(await run(['groups', 'remove', 'sre', 'Bob@Example.com'])).toEqual({
      code: 0,
      stdout: ['removed Bob@example.com (bob-sub) from group sre'],
      stderr: [],
    });
    const deniedJson = await run(['access', 'check', '--client', 'grafana', '--user', 'bob-sub', '--json']);
    expect(deniedJson.code).toBe(1);
    expect(JSON.parse(deniedJson.stdout.join('\n'))).toEqual({
      allowed: false,
      reasons: ['not a member of any of the groups sre'],
    });
    await run(['groups', 'add', 'dev', 'bob-sub']);
    expect(await json(['groups', 'remove', 'dev', 'bob-sub'])).toEqual({ groups: [] });
    expect(await groupEvents()).toEqual([
      'group.member_added root-admin bob-sub {"group":"sre"}',
      'group.member_removed root-admin bob-sub {"group":"sre"}',
      'group.member_added root-admin bob-sub {"group":"dev"}',
      'group.member_removed root-admin bob-sub {"group":"dev"}',
    ]);
  });

  it.each([
    [
      ['groups', 'add', 'sre', 'carol'],
      'USER_NOT_EDITABLE: This user account cannot be modified. (declared in the config file: change it there and run `idp apply`)',
    ],
    [
      ['groups', 'remove', 'sre', 'carol@example.com'],
      'USER_NOT_EDITABLE: This user account cannot be modified. (declared in the config file: change it there and run `idp apply`)',
    ],
    [['groups', 'add', 'ops', 'bob-sub'], 'GROUP_NOT_FOUND: Group not found.'],
    [['groups', 'remove', 'dev', 'bob-sub'], 'MEMBER_NOT_FOUND: The user is not a member of this group.'],
    [['groups', 'add', 'sre', 'nobody@example.com'], 'USER_NOT_FOUND: User not found.'],
    [['groups', 'members', 'ops'], 'GROUP_NOT_FOUND: Group not found.'],
    [
      ['groups', 'members', 'Not An Id'],
      /^VALIDATION_ERROR: .*"id" with value "Not An Id" fails to match the group id pattern/,
    ],
    [
      ['groups', 'members', 'sre', '--page-size', '101'],
      /^VALIDATION_ERROR: .*"page_size" must be less than or equal to 100/,
    ],
    [['users', 'groups', 'nobody'], 'USER_NOT_FOUND: User not found.'],
    [['access', 'check', '--client', 'jenkins', '--user', 'bob-sub'], 'CLIENT_NOT_FOUND: Client not found.'],
    [['access', 'check', '--client', 'grafana', '--user', 'nobody'], 'USER_NOT_FOUND: User not found.'],
  ])('%j prints one `CODE: message` line and exits 1, changing nothing', async (argv, line) => {
    const before = await groupEvents();
    const result = await run(argv);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toHaveLength(1);
    if (typeof line === 'string') expect(result.stderr[0]).toBe(line);
    else expect(result.stderr[0]).toMatch(line);
    expect(result.code).toBe(1);
    expect(await groupEvents()).toEqual(before);
  });

  it.each([
    [['access', 'check', '--client', 'grafana'], /required option '--user <user>' not specified/],
    [['access', 'check', '--user', 'bob-sub'], /required option '--client <id>' not specified/],
    [['groups', 'members', 'sre', '--page', '0'], /expected a whole number >= 1/],
    [['groups', 'add', 'sre'], /missing required argument 'user'/],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.join('\n')).toMatch(message);
  });
});
