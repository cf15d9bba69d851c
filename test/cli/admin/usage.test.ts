import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { saveCredentials } from '../../../src/cli/admin/credential-store.js';

/**
 * What the admin client decides before (or without) a server answering:
 * usage errors (exit 2), "not logged in", an unreachable server, and the
 * refusal of passwords on the command line. The conversations with a real
 * server are in admin-commands.storage.test.ts.
 */
let configHome: string;
beforeEach(async () => {
  configHome = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-usage-'));
});
afterEach(async () => {
  await rm(configHome, { recursive: true, force: true });
});

async function run(argv: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const output = createCapturedOutput();
  const code = await main(argv, {
    output,
    env: { XDG_CONFIG_HOME: configHome, HOME: configHome, ...options.env },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
  });
  return { code, stdout: output.stdout, stderr: output.stderr };
}

/** A port on 127.0.0.1 that nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('idp admin without a server', () => {
  it.each([
    [['admin', 'login', '--url', 'http://127.0.0.1:9', '--email', 'a@example.com', '--password', 'hunter2']],
    [['admin', 'login', '--url', 'http://127.0.0.1:9', '--email', 'a@example.com', '--password=hunter2']],
    [['admin', 'users', 'create', '--email', 'b@example.com', '--password', 'hunter2']],
  ])('refuses a password on the command line with exit 2 and stores nothing: %j', async (argv) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual([
      'error: passwords are never taken from the command line (shell history, ps): use --password-stdin or the prompt',
    ]);
    expect(result.stdout).toEqual([]);
    expect(await readdir(configHome)).toEqual([]);
  });

  it('asks for --password-stdin when there is no terminal to prompt on', async () => {
    const result = await run(['admin', 'login', '--url', 'http://127.0.0.1:9', '--email', 'a@example.com']);
    expect(result).toMatchObject({
      code: 2,
      stderr: ['error: no terminal to prompt for the password: pipe it in with --password-stdin'],
    });
  });

  it('refuses an empty --password-stdin', async () => {
    const result = await run(
      ['admin', 'login', '--url', 'http://127.0.0.1:9', '--email', 'a@example.com', '--password-stdin'],
      { stdin: '\n' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(/^error: --password-stdin: stdin is empty/);
  });

  it.each([
    [['admin', 'login', '--email', 'a@example.com', '--password-stdin'], /--url is required/],
    [
      ['admin', 'login', '--url', 'ftp://x', '--email', 'a@example.com', '--password-stdin'],
      /--url: "ftp:\/\/x" must start with http:\/\/ or https:\/\//,
    ],
    [
      ['admin', 'login', '--url', 'localhost:8080x', '--email', 'a@example.com', '--password-stdin'],
      /--url: "localhost:8080x" must start with http/,
    ],
    [
      ['admin', 'login', '--url', 'not a url', '--email', 'a@example.com', '--password-stdin'],
      /--url: "not a url" is not a URL/,
    ],
    [['admin', 'login', '--url', 'http://127.0.0.1:9'], /required option '--email <email>' not specified/],
    [
      ['admin', 'users', 'list', '--page', '0'],
      /option '--page <n>' argument '0' is invalid. expected a whole number >= 1/,
    ],
    [['admin', 'users', 'list', '--page-size', 'ten'], /option '--page-size <n>' argument 'ten' is invalid/],
    [['admin', 'users', 'list', '--role', 'root'], /argument 'root' is invalid. Allowed choices are user, admin/],
    [['admin', 'users', 'list', '--managed-by', 'ldap'], /Allowed choices are database, config/],
    // The flags take no value: the old `--email-verified false` must not pass as `--email-verified`.
    [['admin', 'users', 'update', 'sub-1', '--email-verified', 'false'], /too many arguments for 'update'/],
    [['admin', 'users', 'create', '--email', 'a@example.com', '--email-verified', 'true'], /too many arguments/],
    [
      ['admin', 'users', 'update', 'sub-1'],
      /nothing to update: give --email, --role, --email-verified or --no-email-verified/,
    ],
    [['admin', 'users', 'get'], /missing required argument 'user'/],
    [['admin', 'users', 'list', '--bogus'], /unknown option '--bogus'/],
  ])('usage error, exit 2: %j', async (argv, message) => {
    const result = await run(argv, { stdin: 'pw\n' });
    expect(result.code).toBe(2);
    expect(result.stderr.join('\n')).toMatch(message);
  });

  it.each([
    [['admin', 'me']],
    [['admin', 'users', 'list']],
    [['admin', 'users', 'get', 'x']],
    [['admin', 'users', 'create', '--email', 'c@example.com', '--password-stdin']],
    [['admin', 'users', 'update', 'x', '--role', 'admin']],
    [['admin', 'users', 'delete', 'x']],
  ])('not logged in: one line telling to run idp admin login, exit 1: %j', async (argv) => {
    const result = await run(argv, { stdin: 'pw\n' });
    expect(result).toEqual({
      code: 1,
      stdout: [],
      stderr: ['error: not logged in: run `idp admin login --url URL --email EMAIL` first'],
    });
  });

  it('logout when not logged in says so and succeeds', async () => {
    expect(await run(['admin', 'logout'])).toEqual({ code: 0, stdout: ['not logged in'], stderr: [] });
  });

  it('an unreachable server is one clear line, exit 1', async () => {
    const port = await closedPort();
    const login = await run(
      ['admin', 'login', '--url', `http://127.0.0.1:${port}`, '--email', 'a@example.com', '--password-stdin'],
      { stdin: 'pw\n' },
    );
    expect(login).toEqual({
      code: 1,
      stdout: [],
      stderr: [
        `error: cannot reach the idp server at http://127.0.0.1:${port}: connection refused (is \`idp serve\` running?)`,
      ],
    });
    await saveCredentials({ XDG_CONFIG_HOME: configHome }, { url: `http://127.0.0.1:${port}`, cookie: 'session=x' });
    const list = await run(['admin', 'users', 'list']);
    expect(list.code).toBe(1);
    expect(list.stderr).toEqual([
      `error: cannot reach the idp server at http://127.0.0.1:${port}: connection refused (is \`idp serve\` running?)`,
    ]);
  });

  it('logout with the server unreachable removes the local session and says the server still holds it, exit 1', async () => {
    const port = await closedPort();
    await saveCredentials({ XDG_CONFIG_HOME: configHome }, { url: `http://127.0.0.1:${port}`, cookie: 'session=x' });
    expect(await run(['admin', 'logout'])).toEqual({
      code: 1,
      stdout: [],
      stderr: [
        `the local session is removed, but http://127.0.0.1:${port} could not end it: cannot reach the idp server at http://127.0.0.1:${port}: connection refused (is \`idp serve\` running?)`,
      ],
    });
    expect(await run(['admin', 'logout'])).toEqual({ code: 0, stdout: ['not logged in'], stderr: [] });
  });

  it('never sends the stored cookie to another origin given by --url or $IDP_URL', async () => {
    await saveCredentials({ XDG_CONFIG_HOME: configHome }, { url: 'http://127.0.0.1:1', cookie: 'session=x' });
    const expected =
      'error: not logged in to http://127.0.0.1:2 (the stored session is for http://127.0.0.1:1): run `idp admin login --url http://127.0.0.1:2 --email EMAIL`';
    expect((await run(['admin', 'me', '--url', 'http://127.0.0.1:2'])).stderr).toEqual([expected]);
    expect((await run(['admin', 'me'], { env: { IDP_URL: 'http://127.0.0.1:2/' } })).stderr).toEqual([expected]);
  });
});
