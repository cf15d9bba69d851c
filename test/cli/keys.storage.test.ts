import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { openStorage } from '../../src/app.js';
import { testConfig } from '../support/config-fixture.js';

/** `idp keys list|rotate` in process, on a SQLite file named by the config. */
describe('idp keys', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-keys-'));
    file = path.join(dir, 'idp.yaml');
    await writeFile(
      file,
      `database:\n  client: sqlite\n  filename: ${path.join(dir, 'idp.sqlite')}\nsecurity:\n  secret: keys-cli-test-secret-0123456789abcdef\ntokens:\n  signing_alg: ES256\n`,
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main([...args, '-c', file], { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }

  it('rotates and lists the keys, the old one published until it retires', async () => {
    expect((await idp('keys', 'list')).stdout).toContain('no signing keys yet');
    const first = await idp('keys', 'rotate');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created: ES256 key \S+, the first signing key \(there were none to replace\)$/);
    const second = await idp('keys', 'rotate');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^rotated: ES256 key \S+ signs from now on \(running instances switch within 15 s\)\nthe replaced key stays published until \S+$/,
    );
    const listed = await idp('keys', 'list', '--json');
    const keys = JSON.parse(listed.stdout) as { kid: string; alg: string; status: string; retire_at: string | null }[];
    expect(keys.map((k) => [k.alg, k.status])).toEqual([
      ['ES256', 'signing'],
      ['ES256', 'published'],
    ]);
    expect(keys[0].retire_at).toBeNull();
    expect(Date.parse(keys[1].retire_at!)).toBeGreaterThan(Date.now() + 3_600_000);

    // A rotation is an audit event naming the new key; creating the first one replaces nothing.
    const storage = openStorage({ ...testConfig().database, client: 'sqlite', filename: path.join(dir, 'idp.sqlite') });
    try {
      const { events } = await storage.repositories.events.list(storage.db, {
        type: 'signing_key.rotated',
        page: 1,
        pageSize: 10,
      });
      expect(events.map((e) => [e.actor, e.subject, e.detail])).toEqual([['config', keys[0].kid, { alg: 'ES256' }]]);
    } finally {
      await storage.close();
    }
  });

  it('refuses an unknown action with exit code 2', async () => {
    const result = await idp('keys', 'shuffle');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown keys action "shuffle"');
  });
});
