import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { createApp, type App } from '../../src/app.js';
import { applyConfig } from '../../src/gitops/index.js';
import { restoreBackup, writeBackup } from '../../src/backup/index.js';
import type { Config } from '../../src/config/types.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig, testTerm, testUser } from '../support/config-fixture.js';
import { testClock, totpCode } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { CookieJar, locationOf } from '../e2e/support/cookie-jar.js';
import { freePort } from '../e2e/support/start-idp.js';

const password = 'correct horse battery staple';
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * Moving an instance between engines: backup on SQLite, restore on
 * PostgreSQL, backup there, restore on SQLite again. Each restored instance
 * runs on the same address (the issuer, and the passkey's origin) with the
 * same config, and everything users had still works: the password, the
 * authenticator app, the passkey, the refresh token, the consent and the
 * terms acceptance.
 */
describe('backup and restore from SQLite to PostgreSQL and back', () => {
  let dir: string;
  let url: string;
  let port: number;
  let config: Config;
  const clock = testClock(Date.now());
  const client = testClient({ clientId: 'web', scopes: ['openid', 'email', 'offline_access'] });
  const device = { current: null as SoftwareAuthenticator | null };
  const databases: TestDatabase[] = [];
  let app: App | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-round-trip-'));
    port = await freePort();
    url = `http://localhost:${port}`;
  });
  afterAll(async () => {
    await app?.stop({ timeoutMs: 1000 });
    for (const database of databases) await database.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** An instance on `database` (applied as serve would), at the one address. */
  async function start(database: TestDatabase): Promise<void> {
    config = testConfig({
      server: { baseUrl: url, baseUrlDerived: false, host: '127.0.0.1', port, trustProxy: false },
      database: database.config,
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob', email: 'bob@example.com' })],
      clients: [client],
      terms: [testTerm({ id: 'tos', required: true, version: '1' })],
    });
    await applyConfig(database.storage, config);
    app = await createApp(config, { storage: database.storage, clock });
    await app.start();
  }

  async function stop(): Promise<void> {
    await app?.stop({ timeoutMs: 1000 });
    app = null;
  }

  async function moveTo(kind: DatabaseKind, from: TestDatabase, name: string): Promise<TestDatabase> {
    await stop();
    const file = path.join(dir, name);
    const written = await writeBackup({ storage: from.storage, clock, configuredSecret: config.security.secret }, file);
    const target = await createTestDatabase(kind, { migrate: false });
    databases.push(target);
    const restored = await restoreBackup({ storage: target.storage, configuredSecret: config.security.secret }, file);
    expect(restored.rows).toBe(written.rows);
    expect(restored.header.engine).toBe(from.kind);
    // The whole schema came over: the migrations past the backup's level have nothing left to run.
    expect(restored.migratedAfter).toEqual([]);
    clock.advance(120_000);
    await start(target);
    return target;
  }

  const post = (jar: CookieJar, route: string, body: unknown) =>
    jar.fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(body),
    });
  const token = (form: Record<string, string>) =>
    fetch(`${url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`web:${client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams(form),
    });

  /** Alice signs in with her password and her authenticator app's code. */
  async function aliceSignsIn(secret: string): Promise<CookieJar> {
    const jar = new CookieJar();
    const pending = await post(jar, '/api/auth/login', { email: 'alice@example.com', password });
    expect(pending.status).toBe(200);
    expect(((await pending.json()) as { factors: string[] }).factors).toContain('totp');
    expect((await post(jar, '/api/auth/login/totp', { code: totpCode(secret, clock.now()) })).status).toBe(200);
    return jar;
  }

  /** Everything Alice and Bob had works on the instance running now; resolves with Alice's next refresh token. */
  async function checkAccounts(secret: string, refreshToken: string): Promise<string> {
    const jar = await aliceSignsIn(secret);
    const consents = (await (await jar.fetch(`${url}/api/consents`)).json()) as { consents: { client_id: string }[] };
    expect(consents.consents.map((c) => c.client_id)).toEqual(['web']);
    const terms = (await (await jar.fetch(`${url}/api/terms`)).json()) as {
      terms: { id: string; accepted_version: string | null }[];
    };
    expect(terms.terms).toEqual([expect.objectContaining({ id: 'tos', accepted_version: '1' })]);
    // The consent holds: no consent page this time, straight back to the client with a code.
    const callback = locationOf(await jar.fetch(authorizeUrl(false)), url);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);

    const browser = new CookieJar();
    const request = await (await post(browser, '/api/auth/passkey/options', {})).json();
    const verified = await post(browser, '/api/auth/passkey/verify', {
      response: device.current!.assert(request as never),
    });
    expect(verified.status).toBe(200);
    return ((await refreshed.json()) as { refresh_token: string }).refresh_token;
  }

  const authorizeUrl = (prompt: boolean) =>
    `${url}/oauth2/authorize?${new URLSearchParams({
      client_id: 'web',
      redirect_uri: 'https://web.example.com/callback',
      response_type: 'code',
      scope: 'openid email offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      ...(prompt ? { prompt: 'consent' } : {}),
    })}`;

  it('keeps sign-in, TOTP, passkeys, refresh tokens, consents and terms acceptances across both moves', async () => {
    const source = await createTestDatabase('sqlite');
    databases.push(source);
    await start(source);

    // Alice: a password, terms accepted, an authenticator app, a consent and a refresh token.
    const jar = new CookieJar();
    expect((await post(jar, '/api/auth/login', { email: 'alice@example.com', password })).status).toBe(200);
    expect((await post(jar, '/api/terms/accept', { terms: [{ id: 'tos', version: '1' }] })).status).toBe(200);
    const { secret } = (await (await post(jar, '/api/user/totp', {})).json()) as { secret: string };
    expect((await post(jar, '/api/user/totp/confirm', { code: totpCode(secret, clock.now()) })).status).toBe(200);
    const consentPage = locationOf(await jar.fetch(authorizeUrl(true)), url);
    expect(consentPage.pathname).toBe('/consent');
    const decided = await post(jar, '/api/consent', {
      return_to: consentPage.searchParams.get('return_to'),
      decision: 'allow',
    });
    const { redirect_to } = (await decided.json()) as { redirect_to: string };
    const callback = locationOf(await jar.fetch(new URL(redirect_to, url)), url);
    const tokens = await token({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: 'https://web.example.com/callback',
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    const first = ((await tokens.json()) as { refresh_token: string }).refresh_token;

    // Bob: a passkey.
    const bob = new CookieJar();
    expect((await post(bob, '/api/auth/login', { email: 'bob@example.com', password })).status).toBe(200);
    device.current = new SoftwareAuthenticator(url);
    const options = await (await post(bob, '/api/user/passkeys/options', {})).json();
    expect(
      (await post(bob, '/api/user/passkeys', { response: device.current.register(options as never), name: 'Laptop' }))
        .status,
    ).toBe(201);

    const onPostgres = await moveTo('postgres', source, 'from-sqlite.idp-backup.gz');
    const second = await checkAccounts(secret, first);
    // The refresh token used on PostgreSQL was rotated there: the new one moves on, the old one stays spent.
    await moveTo('sqlite', onPostgres, 'from-postgres.idp-backup.gz');
    await checkAccounts(secret, second);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first })).status).toBe(400);
  });
});
