import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { testUser } from '../../support/config-fixture.js';
import { createTestApp, testPassword, type TestApp } from '../../support/test-app.js';
import { applyConfig } from '../../../src/gitops/index.js';
import { createEventLog } from '../../../src/events/index.js';
import { pino } from 'pino';

/** `idp admin events list` against the real server on SQLite (the API's filters are tested on both engines in test/e2e). */
describe('idp admin events list', () => {
  let testApp: TestApp;
  let url: string;
  let home: string;

  const run = async (argv: string[], options: { stdin?: string; signal?: AbortSignal } = {}) => {
    const output = { ...createCapturedOutput(), columns: 200 };
    const code = await main(['admin', ...argv], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
      signal: options.signal,
    });
    return { code, stdout: output.stdout, stderr: output.stderr };
  };

  const record = (type: 'sign_out' | 'config.applied', actor: string, detail = {}) =>
    testApp.database.storage.transaction((tx) =>
      createEventLog({
        storage: testApp.database.storage,
        logger: pino({ level: 'silent' }),
        clock: { now: () => Date.now() },
      }).record(tx, {
        type,
        actor,
        subject: actor === 'config' ? null : actor,
        clientAddress: actor === 'config' ? null : '10.0.0.7',
        detail,
      }),
    );

  beforeAll(async () => {
    testApp = await createTestApp('sqlite', {
      users: [
        testUser({ sub: 'root', email: 'root@example.com', role: 'admin' }),
        testUser({ sub: 'alice', email: 'alice@example.com' }),
      ],
    });
    await applyConfig(testApp.database.storage, testApp.config);
    url = await testApp.app.start();
    home = await mkdtemp(path.join(os.tmpdir(), 'idp-events-cli-'));
    const login = await run(['login', '--url', url, '--email', 'root@example.com', '--password-stdin'], {
      stdin: `${testPassword}\n`,
    });
    expect(login.code).toBe(0);
    // Only the events written here: the apply above recorded its own.
    await testApp.database.storage.transaction(async (tx) => {
      const { events } = await testApp.database.storage.repositories.events.list(tx, { page: 1, pageSize: 100 });
      await testApp.database.storage.repositories.events.deleteBefore(
        tx,
        Math.max(...events.map((e) => e.time)) + 1,
        100,
      );
    });
    await record('config.applied', 'config', { created: 2, updated: 0, deleted: 1 });
    await record('sign_out', 'alice');
  });
  afterAll(async () => {
    await testApp?.destroy();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('prints a table, newest first, with a footer', async () => {
    const result = await run(['events', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toMatch(/^TIME \(UTC\)\s+TYPE\s+ACTOR\s+SUBJECT\s+ADDRESS\s+CLIENT\s+DETAIL$/);
    // E-mails beside subs; `config` is no user and stands alone.
    expect(result.stdout[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+sign_out\s+alice@example\.com \(alice\)\s+alice@example\.com \(alice\)\s+10\.0\.0\.7$/,
    );
    expect(result.stdout[2]).toMatch(/config\.applied\s+config\s+\{"created":2,"updated":0,"deleted":1\}$/);
    expect(result.stdout.at(-1)).toBe('page 1 of 1 · 2 events');
  });

  it('filters, prints JSON, and says when nothing matches', async () => {
    const json = await run(['events', 'list', '--type', 'sign_out', '--json']);
    expect(JSON.parse(json.stdout.join('\n'))).toMatchObject({
      events: [
        { type: 'sign_out', actor: 'alice', actor_email: 'alice@example.com', subject_email: 'alice@example.com' },
      ],
      pagination: { total: 1 },
    });
    const none = await run(['events', 'list', '--actor', 'nobody']);
    expect(none.stdout).toEqual(['no events match', '', 'page 1 of 1 · 0 events']);
    const beyond = await run(['events', 'list', '--page', '9']);
    expect(beyond.stdout[0]).toBe('no events on this page');
  });

  it('reports a bad filter as the API error, exit 1', async () => {
    const result = await run(['events', 'list', '--since', 'yesterday']);
    expect(result.code).toBe(1);
    expect(result.stderr.join('\n')).toContain('VALIDATION_ERROR');
  });

  it('--follow prints what is there oldest first, then each new event once, until stopped', async () => {
    const stop = new AbortController();
    const output = createCapturedOutput();
    const following = main(['admin', 'events', 'list', '--follow', '--interval', '1', '--json'], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([]),
      signal: stop.signal,
    });
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && output.stdout.length < count; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await waitFor(2);
    await record('sign_out', 'bob');
    await waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    stop.abort();
    expect(await following).toBe(0);
    expect(output.stdout.map((line) => (JSON.parse(line) as { actor: string }).actor)).toEqual([
      'config',
      'alice',
      'bob',
    ]);
  });

  it('keeps the e-mails and cuts the subs first on a narrow terminal', async () => {
    const output = { ...createCapturedOutput(), columns: 72 };
    const code = await main(['admin', 'events', 'list', '--type', 'sign_out', '--actor', 'alice'], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([]),
    });
    expect(code).toBe(0);
    for (const line of output.stdout) expect(Array.from(line).length).toBeLessThanOrEqual(72);
    expect(output.stdout[1]).toMatch(/sign_out {2}alice@example\.com \(?… {2}alice@example\.com \(?…$/);
  });

  it('--follow with an e-mail beside the sub', async () => {
    const stop = new AbortController();
    const output = createCapturedOutput();
    const following = main(['admin', 'events', 'list', '--follow', '--type', 'sign_out', '--actor', 'alice'], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([]),
      signal: stop.signal,
    });
    for (let i = 0; i < 100 && output.stdout.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    stop.abort();
    expect(await following).toBe(0);
    expect(output.stdout).toEqual([
      expect.stringMatching(
        / {2}sign_out {2}alice@example\.com \(alice\) {2}alice@example\.com \(alice\) {2}10\.0\.0\.7 {2}-$/,
      ),
    ]);
  });

  it('--follow without --json prints one line per event', async () => {
    const stop = new AbortController();
    const output = createCapturedOutput();
    const following = main(['admin', 'events', 'list', '--follow', '--type', 'config.applied'], {
      output,
      env: { XDG_CONFIG_HOME: home, HOME: home },
      stdin: Readable.from([]),
      signal: stop.signal,
    });
    for (let i = 0; i < 100 && output.stdout.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    stop.abort();
    expect(await following).toBe(0);
    expect(output.stdout).toEqual([
      expect.stringMatching(
        /^\S+ \S+ {2}config\.applied {2}config {2}- {2}- {2}- {2}\{"created":2,"updated":0,"deleted":1\}$/,
      ),
    ]);
  });
});
