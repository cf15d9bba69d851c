import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { readConfigDrift } from '../../src/gitops/index.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { knexSettingsRepository } from '../../src/storage/knex/settings.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { manualClock, testScheduler } from './scheduler-fixture.js';

describe.each(databaseKinds)('idp jobs on %s', (kind) => {
  let t: TestDatabase;
  let dir: string;
  let configFile: string;
  beforeEach(async () => {
    t = await createTestDatabase(kind);
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-jobs-cli-'));
    configFile = path.join(dir, 'idp.yaml');
    const database =
      kind === 'sqlite'
        ? `  client: sqlite\n  filename: ${JSON.stringify(t.config.filename)}\n`
        : `  client: postgres\n  url: ${JSON.stringify(t.config.url)}\n`;
    await writeFile(
      configFile,
      `database:\n${database}security:\n  secret: ${'s'.repeat(40)}\nlogging:\n  level: silent\n`,
    );
  });
  afterEach(async () => {
    await t.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main(args, { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout, stderr: output.stderr };
  }

  async function seed() {
    const clock = manualClock(Date.UTC(2026, 2, 3, 4, 5, 6));
    const scheduler = testScheduler(t.tx, { clock });
    scheduler.registerHandler('test.step', async ({ label }) => {
      if (label === 'bad') throw new Error('handler exploded');
    });
    const good = await scheduler.enqueue('test.step', { label: 'good' }, { maxAttempts: 1 });
    const bad = await scheduler.enqueue('test.step', { label: 'bad' }, { maxAttempts: 1 });
    await scheduler.worker.runNext();
    await scheduler.worker.runNext();
    const waiting = await scheduler.enqueue('noop', {}, { runAt: clock.now() + 60_000 });
    return { good, bad, waiting };
  }

  it('lists jobs as JSON, filtered by state', async () => {
    const { good, bad, waiting } = await seed();
    const all = await idp('jobs', 'list', '-c', configFile, '--json');
    expect(all.code).toBe(0);
    const body = JSON.parse(all.stdout.join('\n'));
    expect(body.counts).toEqual({ pending: 1, running: 0, succeeded: 1, failed: 1 });
    expect(body.jobs.map((j: { id: string }) => j.id).sort()).toEqual([good, bad, waiting].sort());

    const failed = JSON.parse(
      (await idp('jobs', 'list', '-c', configFile, '--json', '--state', 'failed')).stdout.join('\n'),
    );
    expect(failed.jobs).toEqual([
      expect.objectContaining({
        id: bad,
        kind: 'test.step',
        state: 'failed',
        attempts: 1,
        maxAttempts: 1,
        lastError: 'handler exploded',
        payload: { label: 'bad' },
      }),
    ]);
  });

  it('lists jobs as a table for people', async () => {
    const { bad } = await seed();
    const { code, stdout } = await idp('jobs', 'list', '-c', configFile, '--state', 'failed');
    expect(code).toBe(0);
    expect(stdout[0]).toMatch(/^ID\s+KIND\s+STATE\s+ATTEMPTS/);
    expect(stdout[1]).toContain(bad.slice(0, 7));
    expect(stdout[1]).toMatch(/test\.step\s+failed\s+1\/1/);
    expect(stdout.at(-1)).toBe('pending 1  running 0  succeeded 1  failed 1');
    expect((await idp('jobs', 'list', '-c', configFile, '--state', 'running')).stdout[0]).toBe('no running jobs');
  });

  it('runs the cleanup job once from the CLI', async () => {
    const now = Date.now();
    await jobs.insert(t.tx, {
      id: 'ancient',
      kind: 'noop',
      payload: {},
      state: 'succeeded',
      attempts: 1,
      maxAttempts: 3,
      runAt: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      lastError: null,
      createdAt: 0,
      updatedAt: 0,
      finishedAt: now - 30 * 86_400_000,
    });
    const { code, stdout } = await idp('jobs', 'run', 'cleanup', '-c', configFile, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout.join('\n'))).toEqual({
      job: 'cleanup',
      result: {
        sessions: 0,
        sessions_idle: 0,
        login_rate_limits: 0,
        refresh_tokens: 0,
        revoked_access_tokens: 0,
        grants: 0,
        webauthn_challenges: 0,
        authorization_codes: 0,
        pushed_authorization_requests: 0,
        device_codes: 0,
        link_tokens: 0,
        upstream_states: 0,
        background_jobs: 1,
        events: 0,
        users_erased: 0,
      },
    });
    expect(await jobs.findById(t.tx, 'ancient')).toBeNull();
  });

  it('runs the config-drift job from the CLI: the file against the database, recorded for every instance', async () => {
    const drifted = await idp('jobs', 'run', 'config-drift', '-c', configFile, '--json');
    expect(drifted.code).toBe(0);
    // Nothing declared, nothing applied: no drift.
    expect(JSON.parse(drifted.stdout.join('\n'))).toEqual({ job: 'config-drift', result: { changes: 0 } });
    await writeFile(
      configFile,
      `${await readFile(configFile, 'utf8')}clients:\n  - client_id: svc\n    client_secret: svc-secret-0123456789\n    grant_types: [client_credentials]\n    redirect_uris: []\n`,
    );
    const pending = await idp('jobs', 'run', 'config-drift', '-c', configFile, '--json');
    expect(JSON.parse(pending.stdout.join('\n'))).toEqual({ job: 'config-drift', result: { changes: 1 } });
    expect(await readConfigDrift(t.tx, knexSettingsRepository)).toMatchObject({ drift: true, appliedAt: null });
    expect((await idp('apply', '-c', configFile)).code).toBe(0);
    const applied = await readConfigDrift(t.tx, knexSettingsRepository);
    expect(applied).toMatchObject({ drift: false });
    expect(applied.appliedAt).toBe(applied.checkedAt);
  });

  it('refuses bad input with one line and a usage exit code', async () => {
    const state = await idp('jobs', 'list', '-c', configFile, '--state', 'done');
    expect(state).toMatchObject({
      code: 2,
      stderr: ['error: --state: unknown state "done" (expected pending, running, succeeded, failed)'],
    });
    const limit = await idp('jobs', 'list', '-c', configFile, '--limit', '0');
    expect(limit).toMatchObject({ code: 2, stderr: ['error: --limit: expected an integer from 1 to 10000, got "0"'] });
    const name = await idp('jobs', 'run', 'vacuum', '-c', configFile);
    expect(name).toMatchObject({
      code: 2,
      stderr: ['error: unknown scheduled job "vacuum" (expected cleanup, config-drift)'],
    });
  });
});
