import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, spawnProcess, type SpawnedProcess } from '../support/spawned-process.js';

/**
 * `idp serve` names its process `idp`, so the README's `kill -HUP "$(pidof idp)"`
 * finds the server rather than every `node` on the machine. Linux keeps a
 * process's name (comm) to 15 bytes; `idp` fits.
 */
describe('the process of idp serve', () => {
  let dir: string;
  let server: SpawnedProcess | undefined;
  beforeAll(async () => {
    requireBuild();
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-process-name-'));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is called idp in /proc and by pidof, and reloads on a SIGHUP sent to what pidof finds', async () => {
    const file = path.join(dir, 'idp.yaml');
    await writeFile(
      file,
      'server:\n  host: 127.0.0.1\ndatabase:\n  client: sqlite\n  filename: ./idp.sqlite\nsecurity:\n  secret: process-name-test-secret-0123456789\n',
    );
    server = spawnProcess(
      process.execPath,
      [path.join(repoRoot, 'bin', 'idp'), 'serve', '-c', file, '--port', '0'],
      { NO_COLOR: '1' },
      { cwd: dir },
    );
    await server.waitForLine((l) => typeof l.url === 'string', 60_000);
    const pid = server.child.pid!;

    expect(await readFile(`/proc/${pid}/comm`, 'utf8')).toBe('idp\n');
    // Other servers of the suite may run beside this one: pidof lists them all.
    const pids = (await execa('pidof', ['idp'], { reject: false })).stdout.split(' ').map(Number);
    expect(pids).toContain(pid);

    process.kill(pid, 'SIGHUP');
    await server.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('config reloaded (SIGHUP)'));
  });
});
