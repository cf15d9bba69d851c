import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig, type LoadResult } from '../../src/config/index.js';
import type { Config } from '../../src/config/types.js';
import { applyConfig, createConfigReloader, type ConfigReloader } from '../../src/gitops/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { testPassword } from '../support/test-app.js';
import { testPasswordHash } from '../support/config-fixture.js';

/**
 * Reload without restart (src/gitops/config-reloader.ts), in process: the
 * file is edited, reload() runs, and the running app serves the new config;
 * a bad file changes nothing. test/cli/serve.process.test.ts drives the same
 * through SIGHUP and --watch of a real `idp serve`.
 */
const secret = 'reload-test-secret-0123456789-abcdef';

function yaml(
  options: { clients?: string[]; branding?: string; maxAttempts?: number; port?: number; extra?: string } = {},
): string {
  const clients = (options.clients ?? ['first']).map(
    (id) =>
      `  - client_id: ${id}\n    client_secret: ${id}-secret\n    grant_types: [client_credentials]\n    scopes: [api:read]\n    redirect_uris: []\n`,
  );
  return `server:
  port: ${options.port ?? 8080}
security:
  secret: ${secret}
  login_rate_limit:
    max_attempts: ${options.maxAttempts ?? 5}
branding:
  name: ${options.branding ?? 'Before'}
users:
  - sub: ada
    email: ada@example.com
    password_hash: ${testPasswordHash}
clients:
${clients.join('')}${options.extra ?? ''}`;
}

function captureLogs() {
  const lines: Record<string, any>[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  return { logger, lines };
}

const token = (app: App, clientId: string) =>
  app.server.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientId}-secret`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials&scope=api%3Aread',
  });

const login = (app: App, email: string, password: string) =>
  app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe.each(databaseKinds)('config reload on %s', (kind) => {
  let dir: string;
  let file: string;
  let database: TestDatabase;
  let config: Config;
  let app: App;
  let other: App;
  let reloader: ConfigReloader;
  let logs: ReturnType<typeof captureLogs>;

  async function load(): Promise<LoadResult> {
    const result = await loadConfig({ file, env: {}, cwd: dir });
    return result.ok ? { ...result, config: { ...result.config, database: database.config } } : result;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-reload-'));
    file = path.join(dir, 'idp.yaml');
    await writeFile(file, yaml());
    database = await createTestDatabase(kind);
    const loaded = await load();
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    config = loaded.config;
    await applyConfig(database.storage, config);
    logs = captureLogs();
    app = await createApp(config, { storage: database.storage, logger: logs.logger });
    // Another instance on the same database, with its own config object that nobody reloads.
    const otherLoaded = await load();
    if (!otherLoaded.ok) throw new Error('unreachable');
    other = await createApp(otherLoaded.config, { storage: database.storage, logger: pino({ level: 'silent' }) });
    reloader = createConfigReloader({
      storage: database.storage,
      clock: systemClock,
      logger: logs.logger,
      running: config,
      load,
      apply: true,
      onApplied: () => app.deps.protocol.engine.clients.refresh(),
    });
  });
  afterAll(async () => {
    await app?.stop({ timeoutMs: 1000 });
    await other?.stop({ timeoutMs: 1000 });
    await database?.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    logs.lines.length = 0;
  });

  const reloadLine = () => logs.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('config reload'));

  it('a client added to the file is usable after reload, here at once and on another instance within a second', async () => {
    expect((await token(app, 'second')).statusCode).toBe(401);
    await writeFile(file, yaml({ clients: ['first', 'second'] }));
    expect(await reloader.reload('test')).toBe('reloaded');
    expect(reloadLine()).toMatchObject({
      level: 30,
      msg: 'config reloaded (test): created client second',
      reason: 'test',
      applied: { create: 1, update: 0, remove: 0 },
    });
    expect((await token(app, 'second')).statusCode).toBe(200);
    const deadline = Date.now() + 3000;
    while ((await token(other, 'second')).statusCode !== 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('swaps live settings in place: branding on the pages and the login rate limit', async () => {
    const groups = { branding: config.branding, limit: config.security.loginRateLimit, clients: config.clients };
    await writeFile(file, yaml({ clients: ['first', 'second'], branding: 'After', maxAttempts: 1 }));
    expect(await reloader.reload('test')).toBe('reloaded');
    expect(reloadLine()?.msg).toBe('config reloaded (test): now in effect: branding.name, security.login_rate_limit');
    // The same objects every service holds, with the new values.
    expect(config.branding).toBe(groups.branding);
    expect(config.security.loginRateLimit).toBe(groups.limit);
    expect(config.clients).toBe(groups.clients);
    expect(config.branding.name).toBe('After');
    expect((await app.server.inject('/login')).payload).toContain('After');
    expect((await login(app, 'ada@example.com', 'wrong')).statusCode).toBe(401);
    expect((await login(app, 'ada@example.com', testPassword)).statusCode).toBe(429);
    // An operator who lowered the limit by mistake raises it again without a restart.
    await writeFile(file, yaml({ clients: ['first', 'second'], branding: 'After' }));
    await reloader.reload('test');
    await database.storage.repositories.loginRateLimits.clear(database.storage.db, 'account:ada@example.com');
    expect((await login(app, 'ada@example.com', testPassword)).statusCode).toBe(200);
  });

  it('reports a field that needs a restart and keeps its running value', async () => {
    await writeFile(file, yaml({ clients: ['first', 'second'], branding: 'After', port: 9999 }));
    expect(await reloader.reload('test')).toBe('reloaded');
    expect(config.server.port).toBe(8080);
    // The OpenAPI title follows branding.name, changed by the test before: the mounted document keeps its title too.
    const warning = logs.lines.find((l) => l.level === 40);
    expect(warning).toMatchObject({
      restart_needed: ['server.base_url', 'server.port', 'openapi.title', 'openapi.ui_title'],
      msg: 'config reload: server.base_url, server.port, openapi.title, openapi.ui_title changed and take effect after a restart; the running values stay',
    });
    expect(reloadLine()?.msg).toBe('config reloaded (test): no changes');
  });

  it('an invalid edit keeps the old config running and logs each problem in the validate format', async () => {
    await writeFile(
      file,
      yaml({ clients: ['first', 'second', 'third'], branding: 'Broken' }).replace(
        'max_attempts: 5',
        'max_attempts: none',
      ),
    );
    expect(await reloader.reload('test')).toBe('refused');
    const problem = logs.lines.find((l) => l.level === 50 && l.msg.startsWith(file));
    expect(problem?.msg).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: security\\.login_rate_limit\\.max_attempts: `,
      ),
    );
    expect(logs.lines.at(-1)).toMatchObject({
      level: 50,
      msg: 'config reload (test) refused: the config is invalid (1 problem); still serving the previous config',
    });
    expect(config.branding.name).toBe('After');
    expect((await token(app, 'third')).statusCode).toBe(401);
    expect((await token(app, 'second')).statusCode).toBe(200);
  });

  it('a file that disappears keeps the old config running', async () => {
    await rm(file);
    expect(await reloader.reload('test')).toBe('refused');
    expect(logs.lines.at(-1)?.msg).toBe(
      'config reload (test) refused: the config is invalid (1 problem); still serving the previous config',
    );
    expect((await token(app, 'second')).statusCode).toBe(200);
  });

  it('never half-applies: a collision with a database-managed user applies nothing and swaps nothing', async () => {
    const now = Date.now();
    await database.storage.repositories.users.insert(database.storage.db, {
      sub: 'db-user',
      managedBy: 'database',
      email: 'taken@example.com',
      role: 'user',
      emailVerified: true,
      emailVerificationRequired: false,
      passwordHash: null,
      secondFactorRequired: false,
      name: null,
      givenName: null,
      familyName: null,
      locale: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    const collision = `  - sub: clash\n    email: taken@example.com\n`;
    await writeFile(
      file,
      yaml({ clients: ['first', 'second', 'fourth'], branding: 'Clash' }).replace(
        'clients:\n',
        `${collision}clients:\n`,
      ),
    );
    expect(await reloader.reload('test')).toBe('refused');
    expect(logs.lines.some((l) => l.level === 50 && /users\[1\].*taken@example\.com/.test(l.msg))).toBe(true);
    expect(logs.lines.at(-1)?.msg).toBe(
      'config reload (test) refused: the config collides with database-managed objects; nothing was applied; still serving the previous config',
    );
    expect((await token(app, 'fourth')).statusCode).toBe(401);
    expect(await database.storage.repositories.clients.findById(database.storage.db, 'fourth')).toBeNull();
    expect(config.branding.name).toBe('After');
  });

  it('a database error during the apply, or any unexpected failure, keeps the old config and says why', async () => {
    await writeFile(file, yaml({ clients: ['first', 'sixth', 'seventh'], branding: 'Unreached' }));
    const gone = { ...database.storage, transaction: () => Promise.reject(new Error('connection terminated\nstack')) };
    const failing = createConfigReloader({
      storage: gone,
      clock: systemClock,
      logger: logs.logger,
      running: config,
      load,
      apply: true,
      onApplied: async () => {},
    });
    expect(await failing.reload('test')).toBe('refused');
    expect(logs.lines.at(-1)).toMatchObject({
      level: 50,
      msg: 'config reload (test) refused: it could not be applied: connection terminated; still serving the previous config',
    });
    const broken = createConfigReloader({
      storage: database.storage,
      clock: systemClock,
      logger: logs.logger,
      running: config,
      apply: true,
      onApplied: async () => {},
      load: () => Promise.reject(new Error('EMFILE: too many open files')),
    });
    expect(await broken.reload('test')).toBe('refused');
    expect(logs.lines.at(-1)?.msg).toBe(
      'config reload (test) refused: unexpected error: EMFILE: too many open files; still serving the previous config',
    );
    expect(config.branding.name).not.toBe('Unreached');
    expect((await token(app, 'seventh')).statusCode).toBe(401);
  });

  it('under --no-apply swaps the live settings and writes nothing', async () => {
    const readOnly = createConfigReloader({
      storage: database.storage,
      clock: systemClock,
      logger: logs.logger,
      running: config,
      load,
      apply: false,
      onApplied: async () => {},
    });
    await writeFile(file, yaml({ clients: ['first', 'eighth'], branding: 'Read only' }));
    expect(await readOnly.reload('test')).toBe('reloaded');
    expect(reloadLine()?.msg).toBe(
      'config reloaded (test): now in effect: branding.name (objects not applied: --no-apply)',
    );
    expect(config.branding.name).toBe('Read only');
    expect(await database.storage.repositories.clients.findById(database.storage.db, 'eighth')).toBeNull();
  });

  it('reloads one at a time: requests during a reload fold into one more run, which reads the latest file', async () => {
    await writeFile(file, yaml({ clients: ['first', 'fifth'], branding: 'One' }));
    const first = reloader.reload('a');
    const second = reloader.reload('b');
    // The file changes while the first reload runs (it has not read it yet or is applying it).
    writeFileSync(file, yaml({ clients: ['first', 'sixth'], branding: 'Two' }));
    const third = reloader.reload('c');
    expect(third).toBe(second);
    expect(await Promise.all([first, second, third])).toEqual(['reloaded', 'reloaded', 'reloaded']);
    await reloader.idle();
    const done = logs.lines.filter((l) => l.msg.startsWith('config reloaded'));
    expect(done.map((l) => l.reason)).toEqual(['a', 'b']);
    expect(config.branding.name).toBe('Two');
    expect((await token(app, 'sixth')).statusCode).toBe(200);
    expect((await token(app, 'fifth')).statusCode).toBe(401);
  });
});
