import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { execa, type ResultPromise } from 'execa';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testPasswordHash } from '../../support/config-fixture.js';

/**
 * The real binaries, as an operator runs them: `bin/idp serve` on a free
 * port with a YAML config, and `bin/idp admin …` as separate processes with
 * their own XDG_CONFIG_HOME. Needs the compiled CLI (npm test builds it first).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'idp');
const password = 'correct horse battery staple';
const ansi = /\u001b\[/;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env: NodeJS.ProcessEnv;
  input?: string;
  /** Hold the input back until stdout shows this text (a prompt), as a person would. */
  inputAfter?: string;
}

async function runProcess(command: string, args: string[], options: RunOptions): Promise<Result> {
  const child = execa(command, args, {
    env: options.env,
    extendEnv: false,
    cwd: root,
    stdin: 'pipe',
    reject: false,
    stripFinalNewline: false,
  });
  let shown = '';
  let answered = false;
  const answer = () => {
    answered = true;
    child.stdin.end(options.input ?? '');
  };
  child.stdout.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (!answered && options.inputAfter && shown.includes(options.inputAfter)) setTimeout(answer, 200);
  });
  if (!options.inputAfter) answer();
  const result = await child;
  return { code: result.exitCode ?? null, stdout: result.stdout, stderr: result.stderr };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForHealth(url: string, serve: ResultPromise, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (serve.exitCode !== null) throw new Error(`idp serve exited with ${serve.exitCode}:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`idp serve did not answer on ${url} within 30 s:\n${log()}`);
}

describe('bin/idp admin against bin/idp serve', () => {
  let dir: string;
  let url: string;
  let serve: ResultPromise;
  let serveLog = '';
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npx tsc -p tsconfig.json` (npm test does) first');
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-e2e-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await writeFile(
      path.join(dir, 'idp.yaml'),
      [
        'server:',
        `  base_url: ${url}`,
        '  host: 127.0.0.1',
        `  port: ${port}`,
        'database:',
        '  client: sqlite',
        '  filename: ./idp.sqlite',
        'security:',
        '  secret: end-to-end-secret-end-to-end-secret-0123',
        'logging:',
        '  level: warn',
        'users:',
        '  - sub: e2e-admin',
        '    email: e2e-admin@example.com',
        '    role: admin',
        `    password_hash: ${testPasswordHash}`,
        '',
      ].join('\n'),
    );
    const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, IDP_URL: _url, ...inherited } = process.env;
    env = { ...inherited, XDG_CONFIG_HOME: path.join(dir, 'xdg'), HOME: dir };
    serve = execa(process.execPath, [bin, 'serve', '-c', path.join(dir, 'idp.yaml')], {
      cwd: dir,
      env,
      extendEnv: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
    });
    serve.stdout?.on('data', (chunk: Buffer) => (serveLog += chunk.toString()));
    serve.stderr?.on('data', (chunk: Buffer) => (serveLog += chunk.toString()));
    await waitForHealth(url, serve, () => serveLog);
  }, 60_000);

  afterAll(async () => {
    // Undefined when the set-up failed before starting it.
    if ((serve as ResultPromise | undefined) !== undefined && serve.exitCode === null) {
      serve.kill('SIGTERM');
      await serve;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const idp = (args: string[], input?: string) => runProcess(process.execPath, [bin, ...args], { env, input });

  it('logs in from stdin, then prints a plain table and --json when stdout is a pipe', async () => {
    const login = await idp(
      ['admin', 'login', '--url', url, '--email', 'e2e-admin@example.com', '--password-stdin'],
      `${password}\n`,
    );
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(login.stdout).toContain(`logged in to ${url} as e2e-admin@example.com (admin)`);

    const table = await idp(['admin', 'users', 'list']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).not.toMatch(ansi);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY/);
    expect(lines[1]).toMatch(/^e2e-admin@example.com\s+e2e-admin\s+admin\s+config\b/);
    expect(lines.at(-1)).toBe('page 1 of 1 · 1 user');

    const json = await idp(['admin', 'users', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      users: [{ sub: 'e2e-admin', deleted_at: null }],
      pagination: { page: 1, page_size: 20, total: 1 },
    });

    const missing = await idp(['admin', 'users', 'get', 'nobody']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'USER_NOT_FOUND: User not found.\n' });
  });

  it('users get, update, unlock and delete take an e-mail as well as a sub', async () => {
    expect(
      (
        await idp(
          ['admin', 'login', '--url', url, '--email', 'e2e-admin@example.com', '--password-stdin'],
          `${password}\n`,
        )
      ).code,
    ).toBe(0);
    const created = await idp(
      ['admin', 'users', 'create', '--email', 'ada@example.com', '--password-stdin', '--json'],
      `${password}\n`,
    );
    expect(created.code).toBe(0);
    const sub = JSON.parse(created.stdout).user.sub as string;

    const got = await idp(['admin', 'users', 'get', 'ADA@example.com', '--json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).user).toMatchObject({ sub, email: 'ada@example.com', role: 'user' });
    const updated = await idp(['admin', 'users', 'update', 'ada@example.com', '--role', 'admin', '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout).user).toMatchObject({ sub, role: 'admin' });

    // Five wrong passwords block the account (max_attempts), not the address: the admin's CLI keeps working.
    const login = (pw: string) =>
      fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: pw }),
      });
    for (let i = 0; i < 5; i++) expect((await login('wrong')).status).toBe(401);
    const blocked = await login(password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const unlocked = await idp(['admin', 'users', 'unlock', 'ada@example.com']);
    expect(unlocked).toEqual({
      code: 0,
      stdout: `unlocked ada@example.com (${sub}): its failed sign-in attempts are cleared\n`,
      stderr: '',
    });
    expect((await login(password)).status).toBe(200);
    expect(await idp(['admin', 'users', 'unlock', 'nobody@example.com'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'USER_NOT_FOUND: User not found.\n',
    });

    const deleted = await idp(['admin', 'users', 'delete', 'ada@example.com']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`deleted user ${sub} (ada@example.com)`);
    // A soft-deleted user is still found by its e-mail when no live user has it.
    expect(JSON.parse((await idp(['admin', 'users', 'get', 'ada@example.com', '--json'])).stdout).user).toMatchObject({
      sub,
      deleted_at: expect.any(String),
    });
  });

  it('ratelimit clear works on the database directly and refuses a malformed address', async () => {
    const config = ['-c', path.join(dir, 'idp.yaml')];
    const cleared = await idp(['ratelimit', 'clear', '--address', '::ffff:127.0.0.1', ...config]);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(
      /^(cleared: the failed sign-in attempts of address 127\.0\.0\.1|address 127\.0\.0\.1 had no failed sign-in attempts counted)\n$/,
    );
    expect(cleared.stderr).toBe('');
    const bad = await idp(['ratelimit', 'clear', '--address', '10.0.0.300', ...config]);
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: --address "10.0.0.300" is not an IPv4 or IPv6 address (e.g. 203.0.113.7 or 2001:db8::7)\n',
    });
  });

  it('refuses a password in argv with exit code 2', async () => {
    const result = await idp([
      'admin',
      'login',
      '--url',
      url,
      '--email',
      'e2e-admin@example.com',
      '--password',
      password,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('passwords are never taken from the command line');
  });

  // util-linux `script` gives the CLI a real pseudo-terminal: the prompt must not echo, the table gets colour.
  const script = (command: string, input: string, extraEnv: NodeJS.ProcessEnv = {}, inputAfter?: string) =>
    runProcess('script', ['-qec', command, '/dev/null'], {
      env: { ...env, ...extraEnv, TERM: 'xterm' },
      input,
      inputAfter,
    });

  it('on a terminal: prompts without echo, and colours the table unless NO_COLOR is set', async () => {
    const secretHome = path.join(dir, 'tty');
    const ttyEnv = { XDG_CONFIG_HOME: secretHome };
    const quoted = (args: string[]) => [process.execPath, bin, ...args].map((arg) => `'${arg}'`).join(' ');
    const login = await script(
      quoted(['admin', 'login', '--url', url, '--email', 'e2e-admin@example.com']),
      `${password}\r`,
      ttyEnv,
      '(input hidden)',
    );
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Password for e2e-admin@example.com');
    expect(login.stdout).toContain('logged in to');
    expect(login.stdout).not.toContain(password);

    const coloured = await script(quoted(['admin', 'users', 'list']), '', ttyEnv);
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toMatch(ansi);
    const plain = await script(quoted(['admin', 'users', 'list']), '', { ...ttyEnv, NO_COLOR: '1' });
    expect(plain.stdout).toContain('page 1 of 1 · 1 user');
    expect(plain.stdout).not.toMatch(ansi);
  });
});
