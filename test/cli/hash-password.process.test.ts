import { execa } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/passwords.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** `idp hash-password` through bin/idp; the in-process cases are in hash-password.test.ts. */
describe('bin/idp hash-password', () => {
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
