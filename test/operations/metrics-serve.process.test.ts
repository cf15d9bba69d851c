import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, spawnProcess, type SpawnedProcess } from '../support/spawned-process.js';

/** `idp serve` with metrics.enabled: the listener starts with the server, logs its address, and stops with it. */
describe('idp serve with metrics', () => {
  let dir: string;
  let serving: SpawnedProcess | undefined;
  beforeAll(requireBuild);
  afterEach(async () => {
    await serving?.stop();
    serving = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves GET /metrics on its own port, counts a token response, and closes on SIGTERM', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-metrics-'));
    await writeFile(
      path.join(dir, 'idp.yaml'),
      [
        'server:',
        '  host: 127.0.0.1',
        'database:',
        '  client: sqlite',
        '  filename: ./idp.sqlite',
        'security:',
        '  secret: metrics-process-test-secret-0123456789',
        'logging:',
        '  level: info',
        'metrics:',
        '  enabled: true',
        '  port: 0',
        'clients:',
        '  - client_id: svc',
        '    client_secret: svc-secret',
        '    grant_types: [client_credentials]',
        '    scopes: [api:read]',
        '    redirect_uris: []',
        '',
      ].join('\n'),
    );
    serving = spawnProcess(
      process.execPath,
      [path.join(repoRoot, 'bin', 'idp'), 'serve', '--port', '0'],
      { NO_COLOR: '1' },
      { cwd: dir },
    );
    const scrapeUrl = (await serving.waitForLine((l) => typeof l.metrics_url === 'string', 60_000))
      .metrics_url as string;
    const url = (await serving.waitForLine((l) => typeof l.url === 'string', 60_000)).url as string;
    expect(scrapeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(scrapeUrl).port).not.toBe(new URL(url).port);

    const token = await fetch(`${url}/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('svc:svc-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=api%3Aread',
    });
    expect(token.status).toBe(200);
    const text = await (await fetch(scrapeUrl)).text();
    expect(text).toMatch(/^idp_tokens_issued_total\{grant_type="client_credentials"\} 1$/m);
    // serve applied the file at start.
    expect(text).toMatch(/^idp_config_applied_timestamp_seconds [1-9]/m);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);

    await serving.stop();
    expect(await serving.exited).toBe(0);
    serving = undefined;
    await expect(fetch(scrapeUrl)).rejects.toThrow();
  });
});
