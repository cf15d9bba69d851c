import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { openStorage } from '../../src/app.js';
import { testConfig } from '../support/config-fixture.js';

/** The migrations this build has, in order: a backup made now is at the last one. */
const migrations = readdirSync(path.join(import.meta.dirname, '../../migrations'))
  .filter((name) => /^\d{4}_.*\.js$/.test(name))
  .sort();

const passwordHash =
  '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';

/** `idp backup` and `idp restore` in process, between SQLite files named by two configs. */
describe('idp backup and idp restore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-backup-cli-'));
    for (const name of ['a', 'b'])
      await writeFile(
        path.join(dir, `${name}.yaml`),
        `database:\n  client: sqlite\n  filename: ${name}.sqlite\nsecurity:\n  secret: backup-cli-test-secret-0123456789abcdef\n` +
          `users:\n  - sub: alice\n    email: alice@example.com\n    password_hash: "${passwordHash}"\n`,
      );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main(args, { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }

  it('backs up to a private file and restores it into another database, once', async () => {
    expect((await idp('apply', '-c', 'a.yaml')).code).toBe(0);
    const backup = await idp('backup', '-c', 'a.yaml', '--output', 'a.idp-backup.gz');
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(
      new RegExp(
        `^backed up \\d+ rows of \\d+ tables at migration ${migrations.at(-1)!.replace('.', '\\.')} to a\\.idp-backup\\.gz \\(\\d+ bytes\\)$`,
      ),
    );
    expect((await stat(path.join(dir, 'a.idp-backup.gz'))).mode & 0o777).toBe(0o600);

    const restore = await idp('restore', 'a.idp-backup.gz', '-c', 'b.yaml');
    expect(restore).toMatchObject({ code: 0, stderr: '' });
    expect(restore.stdout).toMatch(
      new RegExp(
        `^restored \\d+ rows of \\d+ tables from a\\.idp-backup\\.gz \\(sqlite, \\S+Z, migration ${migrations.at(-1)!.replace('.', '\\.')}\\)$`,
      ),
    );
    const storage = openStorage({ ...testConfig().database, filename: path.join(dir, 'b.sqlite') });
    try {
      expect((await storage.repositories.users.findBySub(storage.db, 'alice'))?.email).toBe('alice@example.com');
    } finally {
      await storage.close();
    }

    expect(await idp('restore', 'a.idp-backup.gz', '-c', 'b.yaml')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: a.idp-backup.gz: the database is not empty (rows in users, events, settings): restore into a new, empty database',
    });
  });

  it('restores a backup of an older schema at its level, then migrates', async () => {
    const storage = openStorage({ ...testConfig().database, filename: path.join(dir, 'a.sqlite') });
    try {
      await storage.snapshots.migrateTo('0026_pushed_authorization_requests.js');
    } finally {
      await storage.close();
    }
    const backup = await idp('backup', '-c', 'a.yaml', '-o', 'old.gz');
    expect(backup.stdout).toContain('at migration 0026_pushed_authorization_requests.js');
    const restore = await idp('restore', 'old.gz', '-c', 'b.yaml');
    expect(restore.code).toBe(0);
    const newer = migrations.filter((name) => name > '0026_pushed_authorization_requests.js');
    expect(restore.stdout.split('\n')[1]).toBe(`then applied ${newer.length} migration(s): ${newer.join(', ')}`);
  });

  it('says what is wrong in one line: no schema, no file, no --output', async () => {
    expect(await idp('backup', '-c', 'a.yaml', '-o', 'empty.gz')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: empty.gz: the database has no schema yet: there is nothing to back up',
    });
    expect(existsSync(path.join(dir, 'empty.gz'))).toBe(false);
    const missing = await idp('restore', 'missing.gz', '-c', 'b.yaml');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: missing\.gz: cannot open the file: ENOENT/);
    expect((await idp('backup', '-c', 'a.yaml')).code).toBe(2);
    expect((await idp('migrate', '-c', 'a.yaml')).code).toBe(0);
    const unwritable = await idp('backup', '-c', 'a.yaml', '-o', 'no/such/dir.gz');
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^error: no\/such\/dir\.gz: ENOENT: no such file or directory/);
  });
});
