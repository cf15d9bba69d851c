import { execa } from 'execa';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `idp validate` through bin/idp; the in-process cases are in validate.test.ts. */
const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-validate-process-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const secret = 'security: { secret: "0123456789abcdef0123456789abcdef" }';
const files = {
  'valid.yaml': `${secret}\nusers:\n  - sub: a\n    email: a@example.com\n`,
  'invalid.yaml': `${secret}\nserver:\n  port: eighty\nclients:\n  - client_id: web\n    redirect_uri: [https://app.example.com/cb]\n`,
  'cycle.yaml': `${secret}\nserver: &s\n  <<: *s\n`,
};
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

describe('bin/idp validate (a real process)', () => {
  beforeAll(async () => {
    // Build like `npm test` does; errors in files still being written elsewhere do not stop tsc from emitting.
    await execa('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, reject: false });
    expect(existsSync(path.join(root, 'dist/cli/commands/validate.js'))).toBe(true);
  }, 240_000);

  async function spawnIdp(args: string[]) {
    const result = await execa(process.execPath, [path.join(root, 'bin/idp'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      extendEnv: false,
      reject: false,
    });
    return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }

  it.each([
    [['validate', '-c', 'valid.yaml'], 0],
    [['validate', '-c', 'invalid.yaml'], 1],
    [['validate', '-c', 'nope.yaml'], 1],
    [['validate', '-c', 'valid.yaml', '--format', 'xml'], 2],
  ])('idp %j exits %i', async (args, code) => {
    const result = await spawnIdp(args);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  });

  it('prints the JSON report for a cyclic alias, with no stack overflow', async () => {
    const result = await spawnIdp(['validate', '-c', 'cycle.yaml', '--format', 'json']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, errors: [{ line: 3, column: 7 }] });
  });

  it('prints the located problems on stderr, uncoloured when not a TTY', async () => {
    const result = await spawnIdp(['validate', '-c', 'invalid.yaml']);
    expect(result.stderr.split('\n')[0]).toBe('invalid.yaml:3:9: server.port: must be a whole number, not a string');
  });
});
