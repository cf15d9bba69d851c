import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { clientSecret, gitopsYaml, makeWorkdir, runIdp } from './gitops-cli-fixture.js';

describe.each(databaseKinds)('idp diff on %s', (kind) => {
  let t: TestDatabase;
  const work = makeWorkdir();
  beforeAll(async () => {
    t = await createTestDatabase(kind, { migrate: false });
    work.write('idp.yaml', gitopsYaml(t.config, [{ sub: 'alice', role: 'admin' }, { sub: 'bob' }]));
  });
  afterAll(async () => {
    await t.destroy();
    work.cleanup();
  });

  it('--exit-code: 2 with pending changes on a fresh (unmigrated) database, 0 after apply', async () => {
    const before = await runIdp(['diff', '-c', 'idp.yaml', '--exit-code'], work.dir);
    expect(before.code).toBe(2);
    expect(before.stdout).toContain('+ user alice');
    expect(before.stdout).toContain('    role: "admin"');
    expect(before.stdout).toContain('    client_secret: (sensitive)');
    expect(before.stdout.at(-1)).toBe('Plan: 3 to create, 0 to update, 0 to remove.');
    expect(before.all).not.toContain(clientSecret);
    expect(before.all).not.toContain('$argon2id');

    // Without --exit-code, pending changes are a success.
    expect((await runIdp(['diff', '-c', 'idp.yaml'], work.dir)).code).toBe(0);

    const applied = await runIdp(['apply', '-c', 'idp.yaml'], work.dir);
    expect(applied.code).toBe(0);
    const after = await runIdp(['diff', '-c', 'idp.yaml', '--exit-code'], work.dir);
    expect(after).toMatchObject({ code: 0, stdout: ['No changes.'] });
  });

  it('--format json is the machine form of the same plan', async () => {
    work.write('more.yaml', gitopsYaml(t.config, [{ sub: 'alice', role: 'user' }, { sub: 'carol' }]));
    const result = await runIdp(['diff', '-c', 'more.yaml', '--format', 'json'], work.dir);
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout.join('\n'));
    expect(plan.summary).toEqual({ create: 1, update: 1, remove: 1 });
    expect(plan.changes.map((c: { action: string; key: string }) => `${c.action} ${c.key}`)).toEqual([
      'update alice',
      'remove bob',
      'create carol',
    ]);
    expect(plan.changes[0].fields).toEqual([{ field: 'role', old: 'admin', new: 'user' }]);
  });

  it('shows the profile fields a user declares, and a field that leaves the file as cleared', async () => {
    work.write(
      'profile.yaml',
      gitopsYaml(t.config, [
        { sub: 'alice', role: 'admin', profile: { name: 'Ada Lovelace', locale: 'en' } },
        { sub: 'bob' },
      ]),
    );
    const declared = await runIdp(['diff', '-c', 'profile.yaml'], work.dir);
    expect(declared.stdout).toEqual([
      '~ user alice',
      '    name: null → "Ada Lovelace"',
      '    locale: null → "en"',
      '',
      'Plan: 0 to create, 1 to update, 0 to remove.',
    ]);
    expect((await runIdp(['apply', '-c', 'profile.yaml'], work.dir)).code).toBe(0);
    work.write(
      'less.yaml',
      gitopsYaml(t.config, [{ sub: 'alice', role: 'admin', profile: { locale: 'en' } }, { sub: 'bob' }]),
    );
    const removed = await runIdp(['diff', '-c', 'less.yaml', '--format', 'json'], work.dir);
    expect(JSON.parse(removed.stdout.join('\n')).changes).toEqual([
      { kind: 'user', action: 'update', key: 'alice', fields: [{ field: 'name', old: 'Ada Lovelace', new: null }] },
    ]);
  });

  it('rejects an unknown --format as a usage error', async () => {
    const result = await runIdp(['diff', '-c', 'idp.yaml', '--format', 'yaml'], work.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual(['error: unknown --format "yaml" (expected text, json)']);
  });
});
