import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { runIdp } from './gitops-cli-fixture.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** In process; through bin/idp (a pipe, a terminal): hash-password.process.test.ts. */
describe('idp hash-password', () => {
  it('hashes stdin minus one trailing newline, printing only the PHC string', async () => {
    const result = await runIdp(['hash-password'], root, ' pass word \n');
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(1);
    expect(result.stdout[0]).toMatch(/^\$argon2id\$v=19\$m=19456,/);
    expect(result.all).not.toContain('pass word');
    expect(await verifyPassword(result.stdout[0], ' pass word ')).toBe(true);
  });

  it('drops only one newline (CRLF counts as one)', async () => {
    const result = await runIdp(['hash-password'], root, 'abc\n\r\n');
    expect(await verifyPassword(result.stdout[0], 'abc\n')).toBe(true);
  });

  it('refuses empty stdin', async () => {
    const result = await runIdp(['hash-password'], root, '\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([expect.stringMatching(/^error: stdin is empty/)]);
  });

  it('never takes the password from argv', async () => {
    const result = await runIdp(['hash-password', 'hunter2'], root, 'x');
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
  });
});
