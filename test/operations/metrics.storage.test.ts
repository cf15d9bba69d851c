import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/types.js';
import { applyConfig } from '../../src/gitops/index.js';
import { normalizeTrustProxy } from '../../src/config/normalize-trust-proxy.js';
import { testClient, testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { browserAt, testClock, totpCode } from '../support/second-factor-client.js';
import { createTestApp, seedUser, testPassword, type TestApp } from '../support/test-app.js';

/** docs/operations.md, "Metrics": the series move with real traffic on a real port, scraped from the metrics listener. */
describe.each(databaseKinds)('the metrics listener on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  const service = testClient({
    clientId: 'svc',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['reports'],
    requirePkce: false,
  });
  const metricsOn = (extra: Partial<Config> = {}): Partial<Config> => ({
    metrics: { enabled: true, host: '127.0.0.1', port: 0 },
    clients: [service],
    ...extra,
  });

  async function started(extra: Partial<Config> = {}) {
    t = await createTestApp(kind, metricsOn(extra));
    await applyConfig(t.database.storage, t.config);
    const base = await t.app.start();
    const scrapeUrl = t.app.metrics?.url();
    if (!scrapeUrl) throw new Error('the metrics listener did not start');
    return { base, scrapeUrl };
  }

  async function scrape(url: string): Promise<string> {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  }

  /** The value of one sample, by its name and labels as written in the scrape; null when absent. */
  function sample(text: string, series: string): number | null {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? null : Number(line.slice(series.length + 1));
  }

  it('serves every series, which move with sign-ins, token responses and jobs', async () => {
    const { base, scrapeUrl } = await started();
    expect(scrapeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const before = await scrape(scrapeUrl);
    expect(before).toMatch(/^# HELP idp_sign_ins_total /m);
    expect(before).toMatch(/^# HELP idp_tokens_issued_total /m);
    expect(before).toMatch(/^# TYPE idp_http_request_duration_seconds histogram$/m);
    expect(before).toMatch(/^nodejs_heap_size_total_bytes \d+/m);
    expect(before).toMatch(/^process_cpu_user_seconds_total /m);
    expect(sample(before, 'idp_jobs{state="pending"}')).toBe(0);
    expect(sample(before, 'idp_config_drift')).toBe(0);
    // The apply above changed the database (the client): its time, in seconds.
    const appliedAt = sample(before, 'idp_config_applied_timestamp_seconds')!;
    expect(Math.abs(appliedAt - Date.now() / 1000)).toBeLessThan(60);
    expect(sample(before, 'idp_sign_ins_total{method="password",outcome="success"}')).toBeNull();

    await seedUser(t!, { sub: 'ada' });
    const login = (password: string) =>
      fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password }),
      });
    const signedIn = await login(testPassword);
    expect(signedIn.status).toBe(200);
    // Other events (sign_out) go through the same listener and count nothing.
    const signedOut = await fetch(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: signedIn.headers.getSetCookie()[0].split(';')[0], origin: t!.config.server.baseUrl },
    });
    expect(signedOut.status).toBe(204);
    expect((await login('not the password')).status).toBe(401);
    expect((await login('not the password either')).status).toBe(401);

    const token = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`svc:${service.clientSecret!}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials&scope=reports',
    });
    expect(token.status).toBe(200);
    const refused = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=svc&client_secret=wrong',
    });
    expect(refused.status).toBe(401);

    await t!.app.scheduler.enqueue('noop', {});
    await t!.app.scheduler.enqueue('noop', {});
    const moved = await scrape(scrapeUrl);
    expect(sample(moved, 'idp_sign_ins_total{method="password",outcome="success"}')).toBe(1);
    expect(sample(moved, 'idp_sign_ins_total{method="password",outcome="failure"}')).toBe(2);
    expect(sample(moved, 'idp_tokens_issued_total{grant_type="client_credentials"}')).toBe(1);
    expect(sample(moved, 'idp_jobs{state="pending"}')).toBe(2);
    expect(
      sample(moved, 'idp_http_request_duration_seconds_count{route="/api/auth/login",method="post",status="401"}'),
    ).toBe(2);
    expect(
      sample(moved, 'idp_http_request_duration_seconds_count{route="/oauth2/token",method="post",status="200"}'),
    ).toBe(1);

    await t!.app.scheduler.worker.runNext();
    const ran = await scrape(scrapeUrl);
    expect(sample(ran, 'idp_jobs{state="pending"}')).toBe(1);
    expect(sample(ran, 'idp_jobs{state="succeeded"}')).toBe(1);
  });

  it('labels requests by route template: never a path, a sub, an e-mail or a made-up method', async () => {
    const { base, scrapeUrl } = await started();
    await fetch(`${base}/api/admin/users/grace.hopper%40example.com`);
    await fetch(`${base}/no/such/page-of-mallory`);
    await fetch(`${base}/api/health`, { method: 'PROPFIND' });
    // A grant type nobody supports is refused before it could become a label.
    const bogus = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=mallory-grant&client_id=svc',
    });
    expect(bogus.status).toBe(400);
    const text = await scrape(scrapeUrl);
    expect(text).not.toMatch(/grace|hopper|mallory|propfind/i);
    expect(
      sample(text, 'idp_http_request_duration_seconds_count{route="/api/admin/users/{sub}",method="get",status="401"}'),
    ).toBe(1);
    // The front end's catch-all answers unknown GET paths: its template is the label.
    expect(sample(text, 'idp_http_request_duration_seconds_count{route="/{path*}",method="get",status="404"}')).toBe(1);
    // No route for the method at all: one label for every such request.
    expect(sample(text, 'idp_http_request_duration_seconds_count{route="unmatched",method="other",status="404"}')).toBe(
      1,
    );
  });

  it('times forward-auth answers under their route, the allowed ones written before hapi included', async () => {
    const base0 = testConfig();
    const { base, scrapeUrl } = await started({
      server: { ...base0.server, host: '127.0.0.1', port: 0, trustProxy: normalizeTrustProxy(['127.0.0.1']) },
      forwardAuth: {
        cookieDomain: null,
        apps: [
          {
            host: 'app.example.test',
            pathPrefix: '/',
            access: null,
            headers: { user: 'Remote-User', email: 'Remote-Email', name: 'Remote-Name', groups: 'Remote-Groups' },
          },
        ],
      },
    });
    await seedUser(t!, { sub: 'ada' });
    const signedIn = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: testPassword }),
    });
    const cookie = signedIn.headers.getSetCookie()[0].split(';')[0];
    const ask = (headers: Record<string, string>) =>
      fetch(`${base}/api/auth-request`, { headers: { 'x-original-url': 'https://app.example.test/', ...headers } });
    expect((await ask({ cookie })).status).toBe(200);
    expect((await ask({ cookie })).status).toBe(200);
    expect((await ask({})).status).toBe(401);
    const text = await scrape(scrapeUrl);
    expect(
      sample(text, 'idp_http_request_duration_seconds_count{route="/api/auth-request",method="get",status="200"}'),
    ).toBe(2);
    expect(
      sample(text, 'idp_http_request_duration_seconds_count{route="/api/auth-request",method="get",status="401"}'),
    ).toBe(1);
  });

  it('reports drift once the database differs from the config, and none after an apply', async () => {
    const { scrapeUrl } = await started();
    expect(await t!.app.scheduler.runNow('config-drift')).toEqual({ changes: 0 });
    const checked = await t!.app.deps.operations.configDrift();
    expect(checked).toMatchObject({ drift: false });
    expect(checked.checkedAt).toBeGreaterThanOrEqual(checked.appliedAt!);

    // Another version of the file, applied elsewhere: this instance's config no longer matches the database.
    const other = { ...t!.config, clients: [...t!.config.clients, testClient({ clientId: 'other' })] };
    await applyConfig(t!.database.storage, other);
    expect(await t!.app.scheduler.runNow('config-drift')).toEqual({ changes: 1 });
    expect(await t!.app.deps.operations.configDrift()).toMatchObject({ drift: true });
    expect(sample(await scrape(scrapeUrl), 'idp_config_drift')).toBe(1);

    await applyConfig(t!.database.storage, t!.config);
    expect(await t!.app.deps.operations.configDrift()).toMatchObject({ drift: false });
    expect(sample(await scrape(scrapeUrl), 'idp_config_drift')).toBe(0);
  });

  it('answers only GET /metrics: other paths 404, other methods 405', async () => {
    const { scrapeUrl } = await started();
    expect((await fetch(scrapeUrl.replace('/metrics', '/api/health'))).status).toBe(404);
    expect((await fetch(scrapeUrl, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${scrapeUrl}?name=x`)).status).toBe(200);
  });

  it('never blocks the main listener: a stalled scrape and a scrape waiting on a busy database', async () => {
    const { base, scrapeUrl } = await started();
    const { port } = new URL(scrapeUrl);
    // A scraper that never finishes its request.
    const stalled = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    // Every pooled connection busy: the job gauge's read waits (up to its timeout) while the scrape is pending.
    const { db } = t!.database;
    const held = await Promise.all(Array.from({ length: db.client.pool.max as number }, () => db.transaction()));
    try {
      const waiting = fetch(scrapeUrl);
      const started = Date.now();
      const discovery = await fetch(`${base}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      // The scrape still answers, its database gauges keeping their last values.
      expect((await waiting).status).toBe(200);
    } finally {
      for (const trx of held) await trx.rollback();
      stalled.destroy();
    }
  });

  it('closes again when the main server cannot listen', async () => {
    const { base } = await started();
    const port = Number(new URL(base).port);
    const second = await createTestApp(kind, {
      ...metricsOn(),
      server: { ...t!.config.server, port },
    });
    try {
      await expect(second.app.start()).rejects.toThrow(/EADDRINUSE/);
      expect(second.app.metrics?.url()).toBeNull();
    } finally {
      await second.destroy();
    }
  });

  it('stops with the App: the port is closed afterwards', async () => {
    const { scrapeUrl } = await started();
    await t!.app.stop({ timeoutMs: 1000 });
    expect(t!.app.metrics?.url()).toBeNull();
    await expect(fetch(scrapeUrl)).rejects.toThrow();
  });

  it('counts a sign-in that a second factor completes as second_factor, and a wrong code as its failure', async () => {
    const clock = testClock(Date.UTC(2026, 0, 5, 9));
    t = await createTestApp(kind, metricsOn(), { clock });
    await t.app.start();
    await seedUser(t, { sub: 'ada' });
    const b = browserAt(t, '10.9.0.1');
    const first = await b.login('ada@example.com');
    const { secret } = await b.enrolTotp(first.cookie, clock.now());
    clock.advance(60_000);
    const pending = await b.login('ada@example.com');
    expect(pending.body).toMatchObject({ status: 'second_factor_required' });
    const wrongCode = totpCode(secret, clock.now() + 10 * 30_000);
    expect((await b.call('POST', '/api/auth/login/totp', pending.cookie, { code: wrongCode })).statusCode).toBe(401);
    const code = totpCode(secret, clock.now());
    expect((await b.call('POST', '/api/auth/login/totp', pending.cookie, { code })).statusCode).toBe(200);
    const text = await scrape(t.app.metrics!.url()!);
    // The first sign-in, before the factor existed; the second ended with the factor, not the password.
    expect(sample(text, 'idp_sign_ins_total{method="password",outcome="success"}')).toBe(1);
    expect(sample(text, 'idp_sign_ins_total{method="second_factor",outcome="success"}')).toBe(1);
    expect(sample(text, 'idp_sign_ins_total{method="second_factor",outcome="failure"}')).toBe(1);
  });

  it('reads 0 for the config gauges before any apply or check', async () => {
    t = await createTestApp(kind, metricsOn());
    await t.app.start();
    const text = await scrape(t.app.metrics!.url()!);
    expect(sample(text, 'idp_config_applied_timestamp_seconds')).toBe(0);
    expect(sample(text, 'idp_config_drift')).toBe(0);
  });

  it('is off by default: no listener, no request hook', async () => {
    t = await createTestApp(kind);
    await t.app.start();
    expect(t.app.metrics).toBeNull();
    expect(t.app.deps.operations.metrics).toBeNull();
  });
});
