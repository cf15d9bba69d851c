import { execa } from 'execa';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { clientSecret, gitopsYaml, makeWorkdir, runIdp } from './gitops-cli-fixture.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

async function tableCounts(t: TestDatabase): Promise<number[]> {
  const counts: number[] = [];
  for (const table of ['users', 'clients', 'settings']) counts.push(Number((await t.db(table).count({ n: '*' }))[0].n));
  return counts;
}

describe.each(databaseKinds)('idp apply on %s', (kind) => {
  let t: TestDatabase;
  const work = makeWorkdir();
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t.destroy();
    work.cleanup();
  });

  it('applies, then a second apply changes nothing; removing a user soft-deletes it', async () => {
    work.write('idp.yaml', gitopsYaml(t.config, [{ sub: 'alice' }, { sub: 'bob' }]));
    const dry = await runIdp(['apply', '-c', 'idp.yaml', '--dry-run'], work.dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout.at(-1)).toBe('Dry run: nothing was applied.');
    expect(await knexUserRepository.findBySub(t.tx, 'alice')).toBeNull();

    const first = await runIdp(['apply', '-c', 'idp.yaml'], work.dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ user bob');
    expect(first.stdout.at(-1)).toBe('Applied: 3 created, 0 updated, 0 removed.');
    expect(first.all).not.toContain(clientSecret);

    const second = await runIdp(['apply', '-c', 'idp.yaml'], work.dir);
    expect(second).toMatchObject({ code: 0, stdout: ['No changes.'] });

    work.write('idp.yaml', gitopsYaml(t.config, [{ sub: 'alice' }]));
    const removal = await runIdp(['apply', '-c', 'idp.yaml'], work.dir);
    expect(removal.code).toBe(0);
    expect(removal.stdout).toContain('- user bob');
    expect(removal.stdout.at(-1)).toBe('Applied: 0 created, 0 updated, 1 removed.');
    const bob = await knexUserRepository.findBySub(t.tx, 'bob');
    expect(bob?.deletedAt).toEqual(expect.any(Number));
  });

  it('aborts a collision with a database-managed user with exit 1, naming both sides, and writes nothing', async () => {
    await knexUserRepository.insert(t.tx, {
      sub: 'db-user-7',
      managedBy: 'database',
      email: 'Zoe@Example.com',
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
    });
    work.write(
      'clash.yaml',
      gitopsYaml(t.config, [{ sub: 'alice' }, { sub: 'newcomer' }, { sub: 'zoe', email: 'zoe@example.com' }]),
    );
    const before = await tableCounts(t);
    const result = await runIdp(['apply', '-c', 'clash.yaml'], work.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      'clash.yaml:15:5: users[2]: e-mail "zoe@example.com" is already used by database-managed user "db-user-7" <Zoe@Example.com>',
      'error: the config collides with database-managed objects (1 problem); nothing was applied',
    ]);
    expect(await tableCounts(t)).toEqual(before);
    expect(await knexUserRepository.findBySub(t.tx, 'newcomer')).toBeNull();
    expect((await runIdp(['diff', '-c', 'clash.yaml'], work.dir)).code).toBe(1);
  });

  it('says it cannot connect when the database is down: one line, exit 1', async () => {
    const down =
      kind === 'postgres'
        ? { ...t.config, url: 'postgres://root:hunter2@127.0.0.1:1/nowhere' }
        : { ...t.config, filename: path.join(work.dir, 'no-such-dir', 'idp.sqlite') };
    work.write('down.yaml', gitopsYaml(down, [{ sub: 'alice' }]));
    const result = await runIdp(['apply', '-c', 'down.yaml'], work.dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toMatch(/^error: cannot connect to the database /);
    expect(result.stderr[0]).not.toContain('hunter2');
  });
});

describe.each(databaseKinds)('bin/idp apply (spawned) on %s', (kind) => {
  let t: TestDatabase;
  const work = makeWorkdir();
  beforeAll(async () => {
    // `npm test` builds first; a standalone vitest run may not have.
    if (!existsSync(path.join(root, 'dist/cli/commands/apply.js'))) {
      await execa('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, reject: false });
    }
    t = await createTestDatabase(kind, { migrate: false });
  });
  afterAll(async () => {
    await t.destroy();
    work.cleanup();
  });

  const run = async (args: string[]) => {
    const result = await execa(path.join(root, 'bin/idp'), args, {
      cwd: work.dir,
      env: { WEB_SECRET: clientSecret, NO_COLOR: '1' },
      reject: false,
    });
    return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  };

  // Each test starts several processes: on a loaded machine that alone can take most of the default 30 s.
  it(
    'two processes applying at once both succeed: one applies, the other finds nothing to do',
    { timeout: 90_000 },
    async () => {
      const many = Array.from({ length: 1500 }, (_, i) => ({ sub: `user-${i}` }));
      work.write('many.yaml', gitopsYaml(t.config, many));
      // Migrate first: concurrent first-time migrations are knex's business, not apply's.
      expect((await run(['migrate', '-c', 'many.yaml'])).code).toBe(0);
      const results = await Promise.all([run(['apply', '-c', 'many.yaml']), run(['apply', '-c', 'many.yaml'])]);
      expect(results.map((r) => [r.code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      const lastLines = results.map((r) => r.stdout.trimEnd().split('\n').at(-1)).sort();
      expect(lastLines).toEqual(['Applied: 1501 created, 0 updated, 0 removed.', 'No changes.']);
      expect(Number((await t.db('users').count({ n: '*' }))[0].n)).toBe(1500);
    },
  );

  it('applies through the real binary, and diff --exit-code then exits 0', { timeout: 90_000 }, async () => {
    work.write('idp.yaml', gitopsYaml(t.config, [{ sub: 'alice' }]));
    const pending = await run(['diff', '--exit-code', '-c', 'idp.yaml']);
    expect(pending.code).toBe(2);
    const applied = await run(['apply', '-c', 'idp.yaml']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Applied: 1 created, 0 updated, 1500 removed.');
    expect(`${applied.stdout}${applied.stderr}`).not.toContain(clientSecret);
    expect((await run(['diff', '--exit-code', '-c', 'idp.yaml'])).code).toBe(0);
  });
});
