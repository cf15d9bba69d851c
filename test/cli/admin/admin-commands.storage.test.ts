import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticator } from 'otplib';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { credentialsPath } from '../../../src/cli/admin/credential-store.js';
import { databaseKinds, type DatabaseKind } from '../../support/databases.js';
import { testConfig, testUser } from '../../support/config-fixture.js';
import type { Config } from '../../../src/config/types.js';
import { createTestApp, seedUser, testPassword, type TestApp } from '../../support/test-app.js';
import { SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { applyConfig } from '../../../src/gitops/index.js';

const adminSub = 'root-admin';
const adminEmail = 'root@example.com';
const adminPassword = testPassword;

interface RunningServer {
  url: string;
  testApp: TestApp;
  stop(): Promise<void>;
}

/** The real app on a random port, with one config-managed admin applied from the config. */
async function startAdminServer(kind: DatabaseKind, overrides: Partial<Config> = {}): Promise<RunningServer> {
  const testApp = await createTestApp(kind, {
    users: [testUser({ sub: adminSub, email: adminEmail, role: 'admin' })],
    ...overrides,
  });
  await applyConfig(testApp.database.storage, testApp.config);
  const url = await testApp.app.start();
  return { url, testApp, stop: () => testApp.destroy() };
}

/**
 * `idp admin` against the real server (createApp on a random port) on both
 * engines, run in-process through main() with a private XDG_CONFIG_HOME per
 * person at the terminal.
 */
describe.each(databaseKinds)('idp admin against a real server on %s', (kind) => {
  let server: RunningServer;
  const homes: string[] = [];

  beforeAll(async () => {
    server = await startAdminServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
    for (const home of homes) await rm(home, { recursive: true, force: true });
  });

  /** One person's terminal: its own config directory. */
  async function terminal() {
    const home = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-cli-'));
    homes.push(home);
    const env = { XDG_CONFIG_HOME: home, HOME: home };
    const run = async (argv: string[], stdin?: string) => {
      const output = createCapturedOutput();
      const code = await main(['admin', ...argv], {
        output,
        env,
        stdin: Readable.from(stdin === undefined ? [] : [stdin]),
      });
      return { code, stdout: output.stdout, stderr: output.stderr };
    };
    const json = async (argv: string[], stdin?: string) => {
      const result = await run([...argv, '--json'], stdin);
      expect(result.stderr).toEqual([]);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout.join('\n'));
    };
    const login = (email: string, password: string) =>
      run(['login', '--url', server.url, '--email', email, '--password-stdin'], `${password}\n`);
    return { home, env, run, json, login, credentials: credentialsPath(env) };
  }

  it('login → me → list → create → get → update → delete → list --include-deleted', async () => {
    const admin = await terminal();

    const login = await admin.login(adminEmail, adminPassword);
    expect(login.stderr).toEqual([]);
    expect(login.code).toBe(0);
    expect(login.stdout[0]).toBe(`logged in to ${server.url} as ${adminEmail} (admin)`);
    expect((await stat(admin.credentials)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(admin.credentials))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(admin.credentials, 'utf8'));
    expect(stored).toEqual({ url: server.url, cookie: expect.stringMatching(/^session=.+/) });
    expect(await readFile(admin.credentials, 'utf8')).not.toContain(adminPassword);

    const me = await admin.run(['me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toContainEqual(expect.stringMatching(new RegExp(`^sub\\s+${adminSub}$`)));
    expect(me.stdout).toContainEqual(expect.stringMatching(new RegExp(`^email\\s+${adminEmail}$`)));
    const meJson = await admin.json(['me']);
    expect(Object.keys(meJson.user).sort()).toEqual(
      [
        'managed_by',
        'sub',
        'email',
        'role',
        'email_verified',
        'email_verification_required',
        'has_password',
        'totp_registered',
        'totp_recovery_codes_missing',
        'second_factor_required',
        'passkey_count',
      ].sort(),
    );
    expect(meJson.user).toMatchObject({ sub: adminSub, email: adminEmail, role: 'admin', managed_by: 'config' });

    const list = await admin.run(['users', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY\s+VERIFIED\s+2FA\s+LOCKED$/);
    expect(list.stdout[1]).toMatch(new RegExp(`^${adminEmail}\\s+${adminSub}\\s+admin\\s+config\\s+yes\\s+no\\s+no$`));
    expect(list.stdout.slice(2)).toEqual(['', 'page 1 of 1 · 1 user']);
    expect(await admin.json(['users', 'list'])).toEqual({
      users: [{ ...meJson.user, deleted_at: null }],
      pagination: { page: 1, page_size: 20, total: 1 },
    });

    const created = await admin.json(
      ['users', 'create', '--email', 'Grace@Example.com', '--password-stdin'],
      'a password with spaces \n',
    );
    expect(created.user).toMatchObject({
      managed_by: 'database',
      role: 'user',
      email_verified: false,
      has_password: true,
      deleted_at: null,
    });
    const sub: string = created.user.sub;

    // The password kept its inner and trailing spaces: only the final newline was dropped.
    const grace = await terminal();
    expect((await grace.login(created.user.email, 'a password with spaces ')).code).toBe(0);

    const shown = await admin.run(['users', 'get', sub]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContainEqual(expect.stringMatching(/^managed by\s+database$/));
    expect(shown.stdout).toContainEqual(expect.stringMatching(/^deleted\s+no$/));
    expect(await admin.json(['users', 'get', sub])).toEqual(created);

    const updated = await admin.json(['users', 'update', sub, '--role', 'admin', '--email-verified']);
    expect(updated.user).toEqual({ ...created.user, role: 'admin', email_verified: true });
    const renamed = await admin.run(['users', 'update', sub, '--email', 'grace.hopper@example.com']);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout[0]).toBe(`updated user ${sub}`);
    expect(renamed.stdout).toContainEqual(expect.stringMatching(/^email\s+grace.hopper@example.com$/));

    const byQuery = await admin.json([
      'users',
      'list',
      '--query',
      'HOPPER',
      '--role',
      'admin',
      '--managed-by',
      'database',
    ]);
    expect(byQuery.users.map((user: { sub: string }) => user.sub)).toEqual([sub]);

    const deleted = await admin.run(['users', 'delete', sub]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout[0]).toMatch(
      new RegExp(
        `^deleted user ${sub} \\(grace.hopper@example.com\\) at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z;`,
      ),
    );

    // Deleting a user ends its sessions at once (docs/http-api.md, "Admin API").
    expect((await grace.run(['me'])).stderr[0]).toMatch(
      /^UNAUTHORIZED: Authentication is required to access this resource\./,
    );

    expect((await admin.json(['users', 'list'])).pagination.total).toBe(1);
    const withDeleted = await admin.run(['users', 'list', '--include-deleted']);
    expect(withDeleted.stdout[0]).toMatch(/DELETED \(UTC\)$/);
    expect(withDeleted.stdout.find((line) => line.includes(sub))).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(withDeleted.stdout.at(-1)).toBe('page 1 of 1 · 2 users');
    const withDeletedJson = await admin.json(['users', 'list', '--include-deleted']);
    expect(withDeletedJson.users.find((user: { sub: string }) => user.sub === sub).deleted_at).toMatch(/Z$/);
  });

  it('takes --email-verified and --no-email-verified alike on create and update', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    const create = (email: string, flags: string[]) =>
      admin.json(['users', 'create', '--email', email, ...flags, '--password-stdin'], 'pw');
    const verified = await create('verified@flags.example.com', ['--email-verified']);
    expect(verified.user.email_verified).toBe(true);
    expect((await create('unverified@flags.example.com', ['--no-email-verified'])).user.email_verified).toBe(false);
    expect((await create('default@flags.example.com', [])).user.email_verified).toBe(false);

    const update = async (flag: string) =>
      (await admin.json(['users', 'update', verified.user.sub, flag])).user.email_verified;
    expect(await update('--no-email-verified')).toBe(false);
    expect(await update('--email-verified')).toBe(true);
  });

  it('get, update, unlock and delete find a user by e-mail as well as by sub', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    const { user } = await admin.json(
      ['users', 'create', '--email', 'Mail.Lookup@example.com', '--password-stdin'],
      'pw',
    );
    expect((await admin.json(['users', 'get', 'mail.lookup@EXAMPLE.com'])).user.sub).toBe(user.sub);
    expect((await admin.json(['users', 'update', 'mail.lookup@example.com', '--role', 'admin'])).user).toMatchObject({
      sub: user.sub,
      role: 'admin',
    });
    // A config user's sub is found as a sub, whatever it looks like.
    expect((await admin.json(['users', 'get', adminSub])).user.email).toBe(adminEmail);

    const failures = () =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'mail.lookup@example.com', password: 'nope' }),
      });
    for (let i = 0; i < 5; i++) expect((await failures()).status).toBe(401);
    expect((await failures()).status).toBe(429);
    const lockedRow = async () =>
      (await admin.run(['users', 'list', '--query', 'mail.lookup'])).stdout.find((line) => line.includes(user.sub));
    expect(await lockedRow()).toMatch(/\syes$/);
    const unlocked = await admin.run(['users', 'unlock', 'MAIL.lookup@example.com']);
    expect(unlocked).toEqual({
      code: 0,
      stdout: [`unlocked Mail.Lookup@example.com (${user.sub}): its failed sign-in attempts are cleared`],
      stderr: [],
    });
    expect((await failures()).status).toBe(401);
    expect(await lockedRow()).toMatch(/\sno$/);
    expect(await admin.run(['users', 'unlock', 'nobody@example.com'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['USER_NOT_FOUND: User not found.'],
    });

    expect((await admin.json(['users', 'delete', 'mail.lookup@example.com'])).user.deleted_at).not.toBeNull();
    // Soft-deleted, it is still found by its e-mail while no live user has it; two such users need the sub.
    expect((await admin.json(['users', 'get', 'mail.lookup@example.com'])).user.sub).toBe(user.sub);
    const again = await admin.json(['users', 'create', '--email', 'mail.lookup@example.com', '--password-stdin'], 'pw');
    await admin.json(['users', 'delete', again.user.sub]);
    const ambiguous = await admin.run(['users', 'get', 'mail.lookup@example.com']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toEqual([
      `error: 2 deleted users had the e-mail mail.lookup@example.com (${[user.sub, again.user.sub].sort().join(', ')}): give the sub`,
    ]);
  });

  it('users restore brings a deleted user back by e-mail, and says why it cannot', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    const { user } = await admin.json(
      ['users', 'create', '--email', 'restore.me@example.com', '--password-stdin'],
      'pw',
    );
    expect(await admin.run(['users', 'restore', 'restore.me@example.com'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['USER_NOT_DELETED: This user account is not deleted.'],
    });
    await admin.json(['users', 'delete', user.sub]);
    expect(await admin.run(['users', 'restore', 'restore.me@example.com'])).toEqual({
      code: 0,
      stdout: [`restored user ${user.sub} (restore.me@example.com): it can sign in again`],
      stderr: [],
    });
    await admin.json(['users', 'delete', user.sub]);
    expect((await admin.json(['users', 'restore', user.sub, '--json'])).user).toMatchObject({
      sub: user.sub,
      deleted_at: null,
    });
  });

  it('pages through users with --page and --page-size', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    for (const name of ['page-a', 'page-b', 'page-c']) {
      await admin.json(['users', 'create', '--email', `${name}@paging.example.com`, '--password-stdin'], 'pw');
    }
    const second = await admin.run(['users', 'list', '--query', 'paging.example', '--page', '2', '--page-size', '2']);
    expect(second.stdout.at(-1)).toBe('page 2 of 2 · 3 users');
    expect(second.stdout.filter((line) => line.startsWith('page-'))).toHaveLength(1);
    const beyond = await admin.run(['users', 'list', '--query', 'paging.example', '--page', '9', '--page-size', '2']);
    expect(beyond.stdout).toEqual(['no users on this page', '', 'page 9 of 2 · 3 users']);
  });

  it('maps API errors to one `CODE: message` line and exit code 1', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    const expectError = async (argv: string[], line: string | RegExp, stdin?: string) => {
      const result = await admin.run(argv, stdin);
      expect(result.stdout).toEqual([]);
      expect(result.stderr).toHaveLength(1);
      if (typeof line === 'string') expect(result.stderr[0]).toBe(line);
      else expect(result.stderr[0]).toMatch(line);
      expect(result.code).toBe(1);
    };

    await expectError(['users', 'get', 'nobody-has-this-sub'], 'USER_NOT_FOUND: User not found.');
    await expectError(['users', 'get', 'nobody', '--json'], 'USER_NOT_FOUND: User not found.');
    await expectError(['users', 'delete', 'nobody-has-this-sub'], 'USER_NOT_FOUND: User not found.');
    // The API's message stays as the admin API states it; the CLI adds why, from the user it looked up.
    const declared =
      'USER_NOT_EDITABLE: This user account cannot be modified. (declared in the config file: change it there and run `idp apply`)';
    await expectError(['users', 'update', adminSub, '--role', 'user'], declared);
    await expectError(['users', 'delete', adminEmail], declared);
    const gone = await admin.json(['users', 'create', '--email', 'gone@example.com', '--password-stdin'], 'pw');
    await admin.json(['users', 'delete', gone.user.sub]);
    await expectError(
      ['users', 'update', gone.user.sub, '--role', 'admin'],
      'USER_NOT_EDITABLE: This user account cannot be modified. (soft-deleted: a deleted user is not changed)',
    );
    // An admin deleting their own account: the server's message says enough.
    await admin.json(['users', 'create', '--email', 'self@example.com', '--role', 'admin', '--password-stdin'], 'pw');
    const self = await terminal();
    await self.login('self@example.com', 'pw');
    expect(await self.run(['users', 'delete', 'self@example.com'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['USER_NOT_EDITABLE: This user account cannot be modified.'],
    });
    await expectError(
      ['users', 'delete', adminEmail, '--json'],
      'USER_NOT_EDITABLE: This user account cannot be modified. (declared in the config file: change it there and run `idp apply`)',
    );
    await expectError(
      ['users', 'create', '--email', adminEmail.toUpperCase(), '--password-stdin'],
      'EMAIL_ALREADY_EXISTS: The provided email is already registered.',
      'pw',
    );
    await expectError(
      ['users', 'list', '--page-size', '101'],
      'VALIDATION_ERROR: The request is invalid. ("page_size" must be less than or equal to 100)',
    );
    await expectError(
      ['users', 'create', '--email', 'two..dots@example.com', '--password-stdin'],
      /^VALIDATION_ERROR: The request is invalid\. \("email" [^;]+\)$/,
      'pw',
    );
    await expectError(
      ['users', 'create', '--email', 'long@example.com', '--password-stdin'],
      /^VALIDATION_ERROR: The request is invalid\. \("password" [^;]+\)$/,
      'x'.repeat(257),
    );
    // A sub of odd characters travels URL-encoded and comes back as a plain 404.
    await expectError(['users', 'get', '../admin/me?x=1#y'], 'USER_NOT_FOUND: User not found.');
  });

  it('a non-admin gets FORBIDDEN; a wrong password INVALID_CREDENTIALS and no credentials', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    await admin.json(['users', 'create', '--email', 'plain@example.com', '--password-stdin'], 'plain-password');

    const plain = await terminal();
    const login = await plain.login('plain@example.com', 'plain-password');
    expect(login.code).toBe(0);
    expect(login.stderr).toEqual(['warning: plain@example.com is not an admin; admin commands will answer FORBIDDEN']);
    expect(await plain.run(['users', 'list'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['FORBIDDEN: You do not have permission to access this resource.'],
    });

    const stranger = await terminal();
    expect(await stranger.login(adminEmail, 'not the password')).toEqual({
      code: 1,
      stdout: [],
      stderr: ['INVALID_CREDENTIALS: The email or password is incorrect.'],
    });
    await expect(stat(stranger.credentials)).rejects.toThrow(/ENOENT/);
  });

  it('--url may name the logged-in server again (same origin), and then the session is used', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    expect((await admin.json(['me', '--url', `${server.url}/`])).user.sub).toBe(adminSub);
  });

  it('logout ends the session on the server: a kept copy of the cookie answers 401', async () => {
    const admin = await terminal();
    const login = await admin.json(
      ['login', '--url', server.url, '--email', adminEmail, '--password-stdin'],
      adminPassword,
    );
    expect(login).toEqual({ user: expect.objectContaining({ sub: adminSub, role: 'admin' }) });
    const kept = await readFile(admin.credentials, 'utf8');

    expect(await admin.run(['logout'])).toEqual({ code: 0, stdout: [`logged out of ${server.url}`], stderr: [] });
    await expect(stat(admin.credentials)).rejects.toThrow(/ENOENT/);
    expect(await admin.run(['users', 'list'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['error: not logged in: run `idp admin login --url URL --email EMAIL` first'],
    });

    await writeFile(admin.credentials, kept, { mode: 0o600 });
    expect(await admin.run(['me'])).toEqual({
      code: 1,
      stdout: [],
      stderr: [
        'UNAUTHORIZED: Authentication is required to access this resource. (the session has ended: run `idp admin login` again)',
      ],
    });
  });

  it('sizes the table to the terminal width', async () => {
    const admin = await terminal();
    await admin.login(adminEmail, adminPassword);
    const { user } = await admin.json(
      ['users', 'create', '--email', 'a-rather-long-address-for-the-table@width.example.com', '--password-stdin'],
      'pw',
    );
    for (const columns of [60, 80, 120]) {
      const output = { ...createCapturedOutput(), columns };
      const code = await main(['admin', 'users', 'list', '--query', 'width.example'], {
        output,
        env: admin.env,
        stdin: Readable.from([]),
      });
      expect(code).toBe(0);
      for (const line of output.stdout) expect(Array.from(line).length).toBeLessThanOrEqual(columns);
      // The sub is never cut (every command takes it); the e-mail is.
      expect(output.stdout[1]).toContain(` ${user.sub} `);
      expect(output.stdout[0]).toMatch(/\sLOCKED$/);
      if (columns < 120) expect(output.stdout[1]).toMatch(/^a-rather-lo\S*… /);
    }
  });
});

describe.each(databaseKinds)('idp admin and second factors, on %s', (kind) => {
  let server: RunningServer;
  let home: string;
  /** The admin's authenticator app, once enrolled. */
  let secret = '';
  beforeAll(async () => {
    server = await startAdminServer(kind, { auth: { ...testConfig().auth, secondFactor: 'required_for_admins' } });
    await seedUser(server.testApp, { sub: 'carol', email: 'Carol@example.com' });
    home = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-2fa-'));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(home, { recursive: true, force: true });
  });

  const env = () => ({ XDG_CONFIG_HOME: home, HOME: home });
  const run = async (argv: string[], stdin: NodeJS.ReadableStream = Readable.from([])) => {
    const output = createCapturedOutput();
    const code = await main(['admin', ...argv], { output, env: env(), stdin });
    return { code, stdout: output.stdout, stderr: output.stderr };
  };
  const login = (extra: string[] = []) =>
    run(
      ['login', '--url', server.url, '--email', adminEmail, '--password-stdin', ...extra],
      Readable.from([adminPassword]),
    );
  /** The JSON API as a browser would call it, for what the pages do (sign in, enrol). */
  const api = async (method: string, url: string, cookie: string | null, body?: unknown) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]);
    return {
      status: response.status,
      body: response.status === 204 ? null : await response.json(),
      cookie: cookies.find((c) => c.startsWith('session=')) ?? null,
    };
  };
  const enrol = async (email: string) => {
    const { cookie } = await api('POST', '/api/auth/login', null, { email, password: adminPassword });
    const begun = (await api('POST', '/api/user/totp', cookie)).body as { secret: string };
    const confirmed = (
      await api('POST', '/api/user/totp/confirm', cookie, { code: authenticator.generate(begun.secret) })
    ).body as { recovery_codes: string[] };
    return { secret: begun.secret, recoveryCodes: confirmed.recovery_codes };
  };

  it('says that a factor must be registered first, and keeps no pending session', async () => {
    const result = await login();
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      `error: ${adminEmail} must register a second factor first: sign in at ${server.url}/login to set one up, then log in here again`,
    ]);
    await expect(stat(credentialsPath(env()))).rejects.toThrow(/ENOENT/);
  });

  it("completes the login with --code: the authenticator app's or a recovery code", async () => {
    const enrolled = await enrol(adminEmail);
    secret = enrolled.secret;
    const noCode = await login();
    expect(noCode.code).toBe(1);
    expect(noCode.stderr).toEqual([
      `error: ${adminEmail} confirms sign-ins with a second factor: pass --code CODE (the authenticator app's, or a recovery code), or run idp admin login in a terminal to be asked`,
    ]);
    expect(await login(['--code', '000000'])).toMatchObject({
      code: 1,
      stderr: ['INVALID_CODE: The code is incorrect, expired or already used.'],
    });
    await expect(stat(credentialsPath(env()))).rejects.toThrow(/ENOENT/);

    const withRecovery = await login(['--code', enrolled.recoveryCodes[0].toUpperCase()]);
    expect(withRecovery).toMatchObject({ code: 0, stderr: [] });
    expect(JSON.parse((await run(['me', '--json'])).stdout.join('\n')).user).toMatchObject({
      sub: adminSub,
      totp_registered: true,
    });
  });

  it('asks for the password and then the code at hidden prompts on a terminal', async () => {
    const terminal = Object.assign(new PassThrough(), {
      isTTY: true,
      isRaw: false,
      setRawMode(mode: boolean) {
        terminal.isRaw = mode;
        return terminal;
      },
    });
    const output = createCapturedOutput();
    const running = main(['admin', 'login', '--url', server.url, '--email', adminEmail], {
      output,
      env: env(),
      stdin: terminal,
    });
    await vi.waitFor(() => expect(output.stderr.join('\n')).toContain('Password for'), { timeout: 5000 });
    terminal.write(`${adminPassword}\r`);
    await vi.waitFor(
      () =>
        expect(output.stderr.join('\n')).toContain(
          `Code from the authenticator app of ${adminEmail}, or a recovery code (input hidden):`,
        ),
      { timeout: 5000 },
    );
    // The enrolment spent the current step; the next one is accepted too (±1 step).
    terminal.write(`${authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret)}\r`);
    expect(await running).toBe(0);
    expect(output.stdout[0]).toBe(`logged in to ${server.url} as ${adminEmail} (admin)`);
  });

  it('says that a passkey cannot be used from a terminal', async () => {
    await seedUser(server.testApp, { sub: 'keyholder', email: 'keyholder@example.com', role: 'admin' });
    const { cookie } = await api('POST', '/api/auth/login', null, {
      email: 'keyholder@example.com',
      password: adminPassword,
    });
    const options = (await api('POST', '/api/user/passkeys/options', cookie)).body;
    const device = new SoftwareAuthenticator(server.testApp.config.server.baseUrl);
    expect(
      (await api('POST', '/api/user/passkeys', cookie, { response: device.register(options as never), name: 'Key' }))
        .status,
    ).toBe(201);
    const result = await run(
      ['login', '--url', server.url, '--email', 'keyholder@example.com', '--password-stdin'],
      Readable.from([adminPassword]),
    );
    expect(result).toMatchObject({
      code: 1,
      stderr: [
        'error: keyholder@example.com confirms sign-ins with a passkey only, which a terminal cannot use: add an authenticator app on the account page, or use another admin account',
      ],
    });
  });

  it("resets a user's second factors, named by e-mail or sub", async () => {
    await enrol('carol@example.com');
    const byEmail = await run(['users', 'reset-second-factors', 'CAROL@example.com']);
    expect(byEmail).toEqual({
      code: 0,
      stdout: [
        'removed the second factors of carol (Carol@example.com): authenticator app, recovery codes and passkeys; its sessions have ended',
      ],
      stderr: [],
    });
    const json = await run(['users', 'reset-second-factors', 'carol', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout.join('\n')).user).toMatchObject({
      sub: 'carol',
      totp_registered: false,
      passkey_count: 0,
    });
    expect(await run(['users', 'reset-second-factors', 'nobody@example.com'])).toEqual({
      code: 1,
      stdout: [],
      stderr: ['USER_NOT_FOUND: User not found.'],
    });
    expect(await run(['users', 'reset-second-factors', 'nobody'])).toMatchObject({
      code: 1,
      stderr: ['USER_NOT_FOUND: User not found.'],
    });
  });
});

describe.each(databaseKinds)('idp admin login against the login rate limit, on %s', (kind) => {
  // A server of its own: the failures count per account and per client address (127.0.0.1).
  let server: RunningServer;
  let home: string;
  beforeAll(async () => {
    server = await startAdminServer(kind);
    home = await mkdtemp(path.join(os.tmpdir(), 'idp-admin-limit-'));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('answers TOO_MANY_REQUESTS with the wait from Retry-After, even for the right password', async () => {
    const login = async (password: string) => {
      const output = createCapturedOutput();
      const argv = ['admin', 'login', '--url', server.url, '--email', adminEmail, '--password-stdin'];
      const code = await main(argv, {
        output,
        env: { XDG_CONFIG_HOME: home, HOME: home },
        stdin: Readable.from([password]),
      });
      return { code, stderr: output.stderr };
    };
    const { maxAttempts } = testConfig().security.loginRateLimit;
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      expect(await login('wrong-password')).toEqual({
        code: 1,
        stderr: ['INVALID_CREDENTIALS: The email or password is incorrect.'],
      });
    }
    const limited = await login(adminPassword);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toHaveLength(1);
    expect(limited.stderr[0]).toMatch(
      /^TOO_MANY_REQUESTS: Too many failed login attempts\. Try again later\. \(retry in \d+ s\)$/,
    );
  });
});
