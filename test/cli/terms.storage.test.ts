import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { openStorage } from '../../src/app.js';
import { testConfig } from '../support/config-fixture.js';

/** `idp terms status` in process, on a SQLite file named by the config. */
describe('idp terms status', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-terms-'));
    file = path.join(dir, 'idp.yaml');
    await writeFile(
      file,
      [
        'database:',
        '  client: sqlite',
        `  filename: ${path.join(dir, 'idp.sqlite')}`,
        'security:',
        '  secret: terms-cli-test-secret-0123456789abcdef',
        'users:',
        '  - { sub: alice, email: alice@example.com }',
        '  - { sub: bob, email: bob@example.com }',
        'terms:',
        '  - { id: tos, required: true, version: "2", content: { en: { title: Terms, type: link, content: "https://example.com/tos" } } }',
        '  - { id: privacy, consent_mode: implicit, version: "1", content: { en: { title: Privacy, type: text, content: Little. } } }',
        '',
      ].join('\n'),
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main([...args, '-c', file], { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout, stderr: output.stderr.join('\n') };
  }

  it('counts, per term at its current version, who accepted and who has still to', async () => {
    expect((await idp('apply')).code).toBe(0);
    const storage = openStorage({ ...testConfig().database, client: 'sqlite', filename: path.join(dir, 'idp.sqlite') });
    try {
      await storage.repositories.termAcceptances.record(storage.db, [
        { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 1 },
        { sub: 'bob', termId: 'tos', version: '1', acceptedAt: 1 },
      ]);
    } finally {
      await storage.close();
    }
    const table = await idp('terms', 'status');
    expect(table.code).toBe(0);
    expect(table.stdout).toEqual([
      'TERM     VERSION  REQUIRED  ACCEPTED  PENDING',
      'privacy  1        no               0        2',
      'tos      2        yes              1        1',
    ]);
    const one = await idp('terms', 'status', '--id', 'privacy', '--json');
    expect(JSON.parse(one.stdout.join('\n'))).toEqual({
      terms: [{ id: 'privacy', version: '1', required: false, accepted: 0, pending: 2 }],
    });
  });

  it('refuses an id the database does not have, with exit code 1', async () => {
    expect((await idp('apply')).code).toBe(0);
    const result = await idp('terms', 'status', '--id', 'nope');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'no term with id "nope" in the database (terms: privacy, tos; run idp apply after editing the file)',
    );
  });
});
