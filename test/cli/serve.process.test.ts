import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { repoRoot, requireBuild, spawnProcess, waitUntil, type SpawnedProcess } from '../support/spawned-process.js';

/**
 * `idp serve` as an operator runs it (bin/idp through execa): reload by
 * SIGHUP and by --watch, on SQLite and on two instances sharing PostgreSQL;
 * the listen address without a config; key rotation as the CLI promises it;
 * and the small CLI behaviours (--version, a closed pipe).
 */
const bin = path.join(repoRoot, 'bin', 'idp');
const secret = 'serve-process-test-secret-0123456789';

function configYaml(database: string, clients: string[], extra = ''): string {
  const blocks = clients.map(
    (id) =>
      `  - client_id: ${id}\n    client_secret: ${id}-secret\n    grant_types: [client_credentials]\n    scopes: [api:read]\n    redirect_uris: []\n`,
  );
  return `server:\n  host: 127.0.0.1\n${database}security:\n  secret: ${secret}\nlogging:\n  level: info\n${extra}clients:\n${blocks.join('')}`;
}

const sqlite = 'database:\n  client: sqlite\n  filename: ./idp.sqlite\n';
const postgres = (url: string) => `database:\n  client: postgres\n  url: ${JSON.stringify(url)}\n`;

async function token(url: string, clientId: string): Promise<{ status: number; accessToken?: string }> {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientId}-secret`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=api%3Aread',
  });
  const body = (await response.json()) as { access_token?: string };
  return { status: response.status, accessToken: body.access_token };
}

const tokenStatus = async (url: string, clientId: string) => (await token(url, clientId)).status;

async function serve(dir: string, args: string[]): Promise<{ process: SpawnedProcess; url: string }> {
  const process_ = spawnProcess(
    process.execPath,
    [bin, 'serve', '--port', '0', ...args],
    { NO_COLOR: '1' },
    { cwd: dir },
  );
  const listening = await process_.waitForLine((l) => typeof l.url === 'string', 60_000);
  return { process: process_, url: listening.url as string };
}

const reloadedLine = (reason: string) => (l: Record<string, unknown>) =>
  typeof l.msg === 'string' && l.msg.startsWith(`config reloaded (${reason})`);
const refusedLine = (reason: string) => (l: Record<string, unknown>) =>
  typeof l.msg === 'string' && l.msg.startsWith(`config reload (${reason}) refused`);

/** Waits for the n-th line (1-based) matching, so a test can wait for the next reload, not an earlier one. */
async function waitForNth(
  p: SpawnedProcess,
  match: (l: Record<string, unknown>) => boolean,
  n: number,
): Promise<Record<string, unknown>> {
  await waitUntil(async () => p.lines.filter(match).length >= n, 30_000, `log line #${n}`);
  return p.lines.filter(match)[n - 1];
}

describe('idp serve reload on SQLite', () => {
  let dir: string;
  const running: SpawnedProcess[] = [];
  beforeAll(requireBuild);
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it('SIGHUP: a client added to the file is usable without a restart; an invalid edit keeps the old config running', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-sighup-'));
    const file = path.join(dir, 'idp.yaml');
    await writeFile(file, configYaml(sqlite, ['one']));
    const { process: server, url } = await serve(dir, ['-c', file]);
    running.push(server);
    expect(await tokenStatus(url, 'one')).toBe(200);
    expect(await tokenStatus(url, 'two')).toBe(401);

    await writeFile(file, configYaml(sqlite, ['one', 'two']));
    server.child.kill('SIGHUP');
    expect((await waitForNth(server, reloadedLine('SIGHUP'), 1)).msg).toBe(
      'config reloaded (SIGHUP): created client two',
    );
    expect(await tokenStatus(url, 'two')).toBe(200);

    await writeFile(file, configYaml(sqlite, ['one', 'two', 'three']).replace('level: info', 'level: loud'));
    server.child.kill('SIGHUP');
    await waitForNth(server, refusedLine('SIGHUP'), 1);
    expect(
      server.lines.some(
        (l) =>
          l.level === 50 &&
          l.msg === `${file}:9:10: logging.level: must be one of fatal, error, warn, info, debug, trace, silent`,
      ),
    ).toBe(true);
    expect(await tokenStatus(url, 'three')).toBe(401);
    expect(await tokenStatus(url, 'two')).toBe(200);

    // One info line per request: method, path without its query, status, duration.
    await fetch(`${url}/api/health?code=query-secret`);
    const request = await server.waitForLine((l) => l.msg === 'request' && l.path === '/api/health');
    expect(request).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/api/health',
      status: 200,
      duration_ms: expect.any(Number),
    });
    expect(JSON.stringify(server.lines)).not.toContain('query-secret');
  });

  it('--watch: an edit is applied without a signal; a broken or missing file keeps the old config running', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-watch-'));
    const file = path.join(dir, 'idp.yaml');
    await writeFile(file, configYaml(sqlite, ['one']));
    const { process: server, url } = await serve(dir, ['-c', file, '--watch']);
    running.push(server);
    await server.waitForLine((l) => l.msg === `watching ${file} for changes`);

    await writeFile(file, configYaml(sqlite, ['one', 'two']));
    expect((await waitForNth(server, reloadedLine('file changed'), 1)).msg).toBe(
      'config reloaded (file changed): created client two',
    );
    expect(await tokenStatus(url, 'two')).toBe(200);

    await writeFile(file, 'clients: [');
    await waitForNth(server, refusedLine('file changed'), 1);
    await rm(file);
    await waitForNth(server, refusedLine('file changed'), 2);
    expect(await tokenStatus(url, 'two')).toBe(200);

    await writeFile(file, configYaml(sqlite, ['two']));
    expect((await waitForNth(server, reloadedLine('file changed'), 2)).msg).toBe(
      'config reloaded (file changed): removed client one',
    );
    expect(await tokenStatus(url, 'one')).toBe(401);
    expect(await tokenStatus(url, 'two')).toBe(200);
  });

  it('a SIGHUP while the server starts neither kills it nor is lost', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-early-hup-'));
    const file = path.join(dir, 'idp.yaml');
    await writeFile(file, configYaml(sqlite, ['one']));
    const server = spawnProcess(
      process.execPath,
      [bin, 'serve', '--port', '0', '-c', file],
      { NO_COLOR: '1' },
      { cwd: dir },
    );
    running.push(server);
    // The first line comes from the start-up apply, before the server listens.
    await server.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('config '), 60_000);
    server.child.kill('SIGHUP');
    const listening = await server.waitForLine((l) => typeof l.url === 'string', 60_000);
    await server.waitForLine(
      (l) => typeof l.msg === 'string' && /^config reloaded \(SIGHUP( during start-up)?\): no changes$/.test(l.msg),
    );
    expect(await tokenStatus(listening.url as string, 'one')).toBe(200);
  });
});

describe('idp serve reload on two instances sharing PostgreSQL', () => {
  let t: TestDatabase;
  let dir: string;
  const running: SpawnedProcess[] = [];
  beforeAll(async () => {
    requireBuild();
    t = await createTestDatabase('postgres');
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-reload-pg-'));
  });
  afterAll(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await t?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'an apply by either instance, by SIGHUP or by --watch, reaches both without a restart',
    { timeout: 120_000 },
    async () => {
      // Each instance has its own copy of the file, as on two machines; A watches its copy.
      const [fileA, fileB] = [path.join(dir, 'a.yaml'), path.join(dir, 'b.yaml')];
      await writeFile(fileA, configYaml(postgres(t.config.url!), ['one']));
      await writeFile(fileB, configYaml(postgres(t.config.url!), ['one']));
      const a = await serve(dir, ['-c', fileA, '--watch']);
      running.push(a.process);
      const b = await serve(dir, ['-c', fileB]);
      running.push(b.process);
      await a.process.waitForLine((l) => l.msg === `watching ${fileA} for changes`);

      await writeFile(fileB, configYaml(postgres(t.config.url!), ['one', 'two']));
      b.process.child.kill('SIGHUP');
      expect((await waitForNth(b.process, reloadedLine('SIGHUP'), 1)).msg).toBe(
        'config reloaded (SIGHUP): created client two',
      );
      expect(await tokenStatus(b.url, 'two')).toBe(200);
      // A never reloaded: its client directory sees the new row within a second.
      await waitUntil(async () => (await tokenStatus(a.url, 'two')) === 200, 5000, 'client two usable on A');

      await writeFile(fileA, configYaml(postgres(t.config.url!), ['one', 'two', 'three']));
      expect((await waitForNth(a.process, reloadedLine('file changed'), 1)).msg).toBe(
        'config reloaded (file changed): created client three',
      );
      expect(await tokenStatus(a.url, 'three')).toBe(200);
      await waitUntil(async () => (await tokenStatus(b.url, 'three')) === 200, 5000, 'client three usable on B');
    },
  );
});

describe('idp serve and the CLI, as operators run them', () => {
  let dir: string;
  const running: SpawnedProcess[] = [];
  beforeAll(async () => {
    requireBuild();
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-cli-'));
  });
  afterAll(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  const idp = (args: string[]) =>
    execa(process.execPath, [bin, ...args], { cwd: dir, env: { NO_COLOR: '1' }, reject: false });

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(await idp(['--version'])).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
    expect(await idp(['-v'])).toMatchObject({ exitCode: 0, stdout: version });
  });

  it('idp openapi without a config prints the document and no warning about anything else', async () => {
    const result = await idp(['openapi']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).openapi).toBe('3.1.0');
  });

  it('a reader that goes away (idp openapi | head) ends the command quietly with 0', async () => {
    const child = execa(process.execPath, [bin, 'openapi'], { cwd: dir, reject: false, buffer: { stdout: false } });
    child.stdout.destroy();
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('--port and --host without a configured base_url move the printed address and the issuer', async () => {
    const port = await freePort();
    const server = spawnProcess(
      process.execPath,
      [bin, 'serve', '--host', '127.0.0.1', '--port', String(port)],
      { NO_COLOR: '1' },
      { cwd: dir },
    );
    running.push(server);
    const listening = await server.waitForLine((l) => typeof l.url === 'string', 60_000);
    expect(listening).toMatchObject({
      url: `http://127.0.0.1:${port}`,
      base_url: `http://localhost:${port}`,
      msg: `idp listening on http://127.0.0.1:${port}, open http://localhost:${port}`,
    });
    const discovery = (await (await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      token_endpoint: string;
    };
    expect(discovery.issuer).toBe(`http://localhost:${port}`);
    expect(discovery.token_endpoint).toBe(`http://localhost:${port}/oauth2/token`);
    // Only the warning about the generated secret, which concerns serve.
    expect(server.stderr.join('')).toBe(
      '<defaults>: warning: security: no security.secret: a random one will be generated and stored in the database (set security.secret: ${IDP_SECRET} to keep sessions valid if the database is replaced)\n',
    );
  });

  it(
    'keys rotate: a running server signs with the new key within the time the command states',
    { timeout: 60_000 },
    async () => {
      const keysDir = await mkdtemp(path.join(dir, 'keys-'));
      const file = path.join(keysDir, 'idp.yaml');
      await writeFile(file, configYaml(sqlite, ['one']));
      const { process: server, url } = await serve(keysDir, ['-c', file]);
      running.push(server);
      const kidOf = async () => decodeProtectedHeader((await token(url, 'one')).accessToken!).kid;
      const before = await kidOf();
      const rotated = await execa(process.execPath, [bin, 'keys', 'rotate', '-c', file], {
        cwd: keysDir,
        env: { NO_COLOR: '1' },
      });
      const rotatedAt = Date.now();
      const promised = Number(/running instances switch within (\d+) s/.exec(rotated.stdout)?.[1]);
      expect(promised).toBeGreaterThan(0);
      const newKid = /rotated: RS256 key (\S+) signs from now on/.exec(rotated.stdout)?.[1];
      await waitUntil(async () => (await kidOf()) !== before, promised * 1000 + 5000, 'the new key in use');
      expect(await kidOf()).toBe(newKid);
      expect(Date.now() - rotatedAt).toBeLessThanOrEqual(promised * 1000);
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
