import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import type { Config } from '../../src/config/types.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds, type DatabaseKind } from '../support/databases.js';
import { closedPort, silentServer, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTestApp, inject, seedUser, type TestApp } from '../support/test-app.js';
import { freshAddress, mailConfig, runJobs } from './mail-app.js';

/**
 * Issue 11, Bad input: an SMTP server that refuses or is down leaves the
 * mail job retried, then failed and visible in `idp jobs list`; the request
 * that queued it answers at once, whatever the SMTP server does.
 */
describe.each(databaseKinds)('mail delivery failures on %s', (kind) => {
  const apps: TestApp[] = [];
  let refusing: SmtpSink;
  let dir: string;

  /** An app mailing through `port`, with two attempts per job and no delay between them. */
  async function appOn(port: number, overrides: Partial<Config> = {}): Promise<TestApp> {
    const config = mailConfig(port, overrides);
    config.scheduler = { ...config.scheduler!, backgroundMaxAttempts: 2, ...overrides.scheduler };
    const t = await createTestApp(kind, config);
    apps.push(t);
    await seedUser(t, { sub: 'uma', email: 'uma@example.com' });
    return t;
  }

  /** `idp jobs list --json --state failed` on the app's database, through the real CLI. */
  async function failedJobsFromCli(t: TestApp, kindOf: DatabaseKind) {
    const file = path.join(dir, `${kindOf}-${apps.indexOf(t)}.yaml`);
    const database =
      kindOf === 'sqlite'
        ? `  client: sqlite\n  filename: ${JSON.stringify(t.database.config.filename)}\n`
        : `  client: postgres\n  url: ${JSON.stringify(t.database.config.url)}\n`;
    await writeFile(file, `database:\n${database}security:\n  secret: ${'s'.repeat(40)}\nlogging:\n  level: silent\n`);
    const output = createCapturedOutput();
    const code = await main(['jobs', 'list', '-c', file, '--json', '--state', 'failed'], { output, env: {}, cwd: dir });
    expect(code).toBe(0);
    return JSON.parse(output.stdout.join('\n')) as {
      jobs: {
        kind: string;
        state: string;
        attempts: number;
        maxAttempts: number;
        lastError: string;
        payload: unknown;
      }[];
    };
  }

  beforeAll(async () => {
    refusing = await startSmtpSink({ refuse: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-mail-jobs-'));
  });
  afterAll(async () => {
    for (const t of apps) await t.destroy();
    await refusing.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('an SMTP server that refuses the recipient: retried, then failed, visible in idp jobs list', async () => {
    const t = await appOn(refusing.port);
    const response = await inject(
      t,
      'POST',
      '/api/auth/password/forgot',
      undefined,
      { email: 'uma@example.com' },
      freshAddress(),
    );
    expect(response.statusCode).toBe(202);
    const runs = await runJobs(t);
    expect(runs.map((r) => r.outcome)).toEqual(['retry', 'failed']);
    expect(runs[1].error).toMatch(/550/);
    expect(refusing.messages).toEqual([]);
    const { jobs } = await failedJobsFromCli(t, kind);
    expect(jobs).toEqual([
      expect.objectContaining({
        kind: 'mail.send',
        state: 'failed',
        attempts: 2,
        maxAttempts: 2,
        lastError: expect.stringMatching(/550/),
        payload: { template: 'password_reset', email: 'uma@example.com', locale: 'en' },
      }),
    ]);
    // Each attempt minted its own token, never mailed; none is in the job.
    expect(await t.database.db('link_tokens').where({ sub: 'uma' })).toHaveLength(2);
    expect(JSON.stringify(jobs)).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it('an SMTP server that is down: retried, then failed, visible in the jobs repository', async () => {
    const t = await appOn(await closedPort());
    expect(
      (await inject(t, 'POST', '/api/auth/password/forgot', undefined, { email: 'uma@example.com' }, freshAddress()))
        .statusCode,
    ).toBe(202);
    expect((await runJobs(t)).map((r) => r.outcome)).toEqual(['retry', 'failed']);
    const [failed] = await t.app.storage.repositories.backgroundJobs.list(t.app.storage.db, {
      state: 'failed',
      limit: 10,
    });
    expect(failed).toMatchObject({ kind: 'mail.send', attempts: 2, lastError: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('an SMTP server that hangs: the request answers at once while the running worker waits on it', async () => {
    const hanging = await silentServer();
    try {
      const base = testConfig();
      const t = await appOn(hanging.port, {
        scheduler: { ...base.scheduler, enabled: true, pollIntervalMs: 50, backgroundRetryDelayMs: 0 },
      });
      await t.app.start();
      const started = performance.now();
      const response = await inject(
        t,
        'POST',
        '/api/auth/password/forgot',
        undefined,
        { email: 'uma@example.com' },
        freshAddress(),
      );
      const elapsed = performance.now() - started;
      expect(response.statusCode).toBe(202);
      expect(elapsed).toBeLessThan(1000);
      // The worker has the job and is still waiting for the server's greeting.
      await expect
        .poll(
          async () =>
            (await t.app.storage.repositories.backgroundJobs.list(t.app.storage.db, { state: 'running', limit: 1 }))
              .length,
        )
        .toBe(1);
    } finally {
      await hanging.close();
    }
  });
});
