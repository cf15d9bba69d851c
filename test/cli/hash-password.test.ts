import { execa } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { runIdp } from './gitops-cli-fixture.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

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

  it('works through the real binary with a pipe', async () => {
    const { stdout } = await execa(path.join(root, 'bin/idp'), ['hash-password'], { input: 'piped secret\n' });
    expect(await verifyPassword(stdout.trim(), 'piped secret')).toBe(true);
  });

  it('prompts twice without echo on a terminal (a real pty through script(1))', async () => {
    const child = execa('script', ['-q', '-e', '-c', `${path.join(root, 'bin/idp')} hash-password`, '/dev/null'], {
      env: { NO_COLOR: '1' },
      stdin: 'pipe',
    });
    let screen = '';
    let typed = 0;
    // Type only once the prompt is shown: the terminal is in raw (no echo) mode from then on.
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      const prompt = ['Password:', 'Repeat the password:'][typed];
      if (prompt && screen.includes(prompt)) {
        child.stdin.write('tty secret\r');
        typed++;
      }
    });
    await child;
    expect(screen).not.toContain('tty secret');
    const hash = screen.split(/\r?\n/).find((line) => line.startsWith('$argon2id$'));
    expect(await verifyPassword(hash ?? '', 'tty secret')).toBe(true);
  });
});
