import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';

/** `idp ratelimit clear`: straight on the database, like `idp migrate`. */
describe.each(databaseKinds)('idp ratelimit clear on %s', (kind) => {
  let t: TestDatabase;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-ratelimit-'));
    file = path.join(dir, 'idp.yaml');
    const database =
      kind === 'sqlite'
        ? `  client: sqlite\n  filename: ${JSON.stringify(t.config.filename)}\n`
        : `  client: postgres\n  url: ${JSON.stringify(t.config.url)}\n`;
    await writeFile(file, `database:\n${database}`);
  });
  afterAll(async () => {
    await t.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main(['ratelimit', ...args, '-c', file], { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout, stderr: output.stderr };
  }

  const counters = async () =>
    (await t.db('login_rate_limits').select('key')).map((row: { key: string }) => row.key).sort();

  it('clears an address in any spelling, and an account by its e-mail, and says when there was nothing', async () => {
    const limits = t.storage.repositories.loginRateLimits;
    for (const key of ['address:203.0.113.7', 'address:2001:db8::7', 'account:ada@example.com', 'address:198.51.100.1'])
      await limits.countAttempt(t.storage.db, key, Date.now(), 0);

    // No warning about security.secret: it does not concern this command.
    expect(await idp('clear', '--address', '::ffff:203.0.113.7')).toEqual({
      code: 0,
      stdout: ['cleared: the failed sign-in attempts of address 203.0.113.7'],
      stderr: [],
    });
    expect(await idp('clear', '--address', '2001:DB8:0::7', '--account', 'ADA@example.com')).toEqual({
      code: 0,
      stdout: [
        'cleared: the failed sign-in attempts of address 2001:db8::7',
        'cleared: the failed sign-in attempts of account ada@example.com',
      ],
      stderr: [],
    });
    expect(await counters()).toEqual(['address:198.51.100.1']);
    expect((await idp('clear', '--address', '203.0.113.7')).stdout).toEqual([
      'address 203.0.113.7 had no failed sign-in attempts counted',
    ]);
  });

  it('clears the wrong device codes counted against an address with its sign-ins', async () => {
    const limits = t.storage.repositories.loginRateLimits;
    await limits.countAttempt(t.storage.db, 'device-code:192.0.2.44', Date.now(), 0);
    expect((await idp('clear', '--address', '192.0.2.44')).stdout).toEqual([
      'cleared: the failed sign-in attempts of address 192.0.2.44',
    ]);
    expect(await counters()).not.toContain('device-code:192.0.2.44');
  });

  it.each([
    [
      ['clear', '--address', '203.0.113'],
      1,
      'error: --address "203.0.113" is not an IPv4 or IPv6 address (e.g. 203.0.113.7 or 2001:db8::7)',
    ],
    [
      ['clear', '--address', 'localhost'],
      1,
      'error: --address "localhost" is not an IPv4 or IPv6 address (e.g. 203.0.113.7 or 2001:db8::7)',
    ],
    [['clear', '--account', 'not-an-email'], 1, 'error: --account "not-an-email" is not an e-mail address'],
    [['clear'], 2, 'error: ratelimit clear: give --address ADDRESS or --account EMAIL'],
    [['reset', '--address', '203.0.113.7'], 2, 'error: unknown ratelimit action "reset" (expected clear)'],
  ])('%j exits %i with one clear line', async (args, code, line) => {
    expect(await idp(...args)).toEqual({ code, stdout: [], stderr: [line] });
  });
});
