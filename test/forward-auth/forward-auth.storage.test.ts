import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { normalizeTrustProxy } from '../../src/config/normalize-trust-proxy.js';
import type { ForwardAuthAppConfig } from '../../src/config/types.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { joinGroup, leaveGroup } from '../support/group-members.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';

/** GET /api/forward-auth and GET /api/auth-request (docs/forward-auth.md) through the real server, on both databases. */

const headerNames = { user: 'Remote-User', email: 'Remote-Email', name: 'Remote-Name', groups: 'Remote-Groups' };
const app = (host: string, more: Partial<ForwardAuthAppConfig> = {}): ForwardAuthAppConfig => ({
  host,
  pathPrefix: '/',
  access: null,
  headers: headerNames,
  ...more,
});
const apps: ForwardAuthAppConfig[] = [
  app('grafana.example.test', { access: { groups: ['sre'], roles: null, secondFactor: null } }),
  app('grafana.example.test', {
    pathPrefix: '/admin',
    access: { groups: null, roles: ['admin'], secondFactor: null },
  }),
  app('*.tools.example.test', { headers: { ...headerNames, user: 'X-Webauth-User' } }),
  app('mfa.example.test', { access: { groups: null, roles: null, secondFactor: 'required' } }),
];

/**
 * Every case runs twice: through server.inject (hapi's lifecycle) and
 * through the listener, as a proxy asks, where an allowed answer takes the
 * fast path (src/http/forward-auth-fast-path.ts) and everything else goes on
 * to hapi.
 */
const transports = ['inject', 'listener'] as const;

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  json(): Record<string, any>;
}

/** A GET over a real connection; `fromOtherPeer` connects from 127.0.0.2, which server.trust_proxy does not name. */
function httpGet(base: string, path: string, headers: Record<string, string>, fromOtherPeer: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}${path}`,
      { headers, agent: false, ...(fromOtherPeer ? { localAddress: '127.0.0.2' } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            json: () => JSON.parse(body) as Record<string, any>,
          });
        });
      },
    );
    request.on('error', reject);
  });
}

describe.each(databaseKinds.flatMap((kind) => transports.map((transport) => [kind, transport] as const)))(
  'forward authentication on %s through %s',
  (kind, transport) => {
    let t: TestApp;
    let alice: string;
    let bob: string;
    let listenerUrl: string;

    /** One of the two routes, asked through this run's transport. */
    const ask = async (
      path: '/api/forward-auth' | '/api/auth-request',
      cookie: string | undefined,
      headers: Record<string, string>,
      fromOtherPeer = false,
    ): Promise<Answer> => {
      const sent = { ...(cookie ? { cookie } : {}), ...headers };
      if (transport === 'listener') return httpGet(listenerUrl, path, sent, fromOtherPeer);
      const response = await t.app.server.inject({
        method: 'GET',
        url: path,
        headers: sent,
        ...(fromOtherPeer ? { remoteAddress: '192.0.2.7' } : {}),
      });
      return {
        statusCode: response.statusCode,
        headers: response.headers as Answer['headers'],
        json: () => JSON.parse(response.payload) as Record<string, any>,
      };
    };

    const forward = (uri: string, host: string, cookie?: string, headers: Record<string, string> = {}) =>
      ask('/api/forward-auth', cookie, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': host,
        'x-forwarded-uri': uri,
        'x-forwarded-method': 'GET',
        ...headers,
      });
    const authRequest = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
      ask('/api/auth-request', cookie, { 'x-original-url': url, ...headers });
    /** What `work` sent: the statements through knex, and the generation checks (Storage.readCacheGeneration calls). */
    const counted = async (work: () => Promise<void>) => {
      const statements: string[] = [];
      const record = (query: Knex.Sql) => statements.push(query.sql);
      const { storage } = t.database;
      const readCacheGeneration = storage.readCacheGeneration;
      let generationReads = 0;
      storage.readCacheGeneration = () => {
        generationReads++;
        return readCacheGeneration.call(storage);
      };
      t.database.db.on('query', record);
      try {
        await work();
      } finally {
        t.database.db.off('query', record);
        storage.readCacheGeneration = readCacheGeneration;
      }
      return { statements, generationReads };
    };
    const deniedEvents = async () =>
      (await t.database.db('events').where({ type: 'access.denied' }).count({ n: '*' }))[0].n;

    beforeAll(async () => {
      const base = testConfig();
      t = await createTestApp(kind, {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: normalizeTrustProxy(['127.0.0.1']) },
        forwardAuth: { cookieDomain: null, apps },
      });
      await seedUser(t, { sub: 'alice', email: 'alice@example.com', name: 'Alice Zoë' });
      await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
      await seedUser(t, { sub: 'root', email: 'root@example.com', role: 'admin' });
      await joinGroup(t.database.storage, 'sre', ['alice', 'root']);
      alice = await signIn(t, 'alice@example.com');
      bob = await signIn(t, 'bob@example.com');
      if (transport === 'listener') listenerUrl = await t.app.start();
    });
    afterAll(() => t.destroy());

    it('passes a signed-in member with the identity headers, on both endpoints', async () => {
      const response = await forward('/d/home?orgId=1', 'grafana.example.test', alice);
      expect(response.statusCode).toBe(200);
      expect(response.headers['remote-user']).toBe('alice');
      expect(response.headers['remote-email']).toBe('alice@example.com');
      // UTF-8 bytes, as proxies pass them on.
      expect(Buffer.from(response.headers['remote-name'] as string, 'latin1').toString('utf8')).toBe('Alice Zoë');
      expect(response.headers['remote-groups']).toBe('sre');
      expect(response.headers['cache-control']).toBe('no-store');
      const nginx = await authRequest('https://grafana.example.test/d/home', alice);
      expect(nginx.statusCode).toBe(200);
      expect(nginx.headers['remote-user']).toBe('alice');
      // No path, or a query without a path: the path /.
      expect((await authRequest('https://grafana.example.test', alice)).statusCode).toBe(200);
      expect((await authRequest('https://GRAFANA.example.test:443?orgId=1', alice)).statusCode).toBe(200);
    });

    it.runIf(transport === 'listener')('writes an allowed answer as hapi would, header for header', async () => {
      const headers = { cookie: alice, 'x-original-url': 'https://grafana.example.test/d/home' };
      const fast = await httpGet(listenerUrl, '/api/auth-request', headers, false);
      const hapi = await t.app.server.inject({ method: 'GET', url: '/api/auth-request', headers });
      const comparable = (all: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(all)
            .filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
            .map(([name, value]) => [name, String(value)]),
        );
      expect(fast.statusCode).toBe(200);
      expect(comparable(fast.headers)).toEqual(comparable(hapi.headers));
    });

    it('uses the renamed headers of an app, and a wildcard host covers one label only', async () => {
      const response = await forward('/', 'wiki.tools.example.test:8443', bob);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-webauth-user']).toBe('bob');
      expect(response.headers['remote-user']).toBeUndefined();
      expect(response.headers['remote-groups']).toBe('');
      expect((await forward('/', 'a.wiki.tools.example.test', bob)).statusCode).toBe(403);
      expect((await forward('/', 'tools.example.test', bob)).json()).toMatchObject({ code: 'UNKNOWN_APP' });
    });

    it('sends a browser page without a session to sign in, and answers 401 to anything else', async () => {
      const page = await forward('/d/home?orgId=1&x=%20y', 'grafana.example.test', undefined, {
        accept: 'text/html,application/xhtml+xml',
      });
      expect(page.statusCode).toBe(302);
      const location = new URL(page.headers.location as string);
      expect(location.origin + location.pathname).toBe(`${t.config.server.baseUrl}/login`);
      expect(location.searchParams.get('return_to')).toBe('https://grafana.example.test/d/home?orgId=1&x=%20y');
      const json = await forward('/api/health', 'grafana.example.test', undefined, { accept: 'application/json' });
      expect(json.statusCode).toBe(401);
      expect(json.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      const post = await forward('/d/home', 'grafana.example.test', undefined, {
        accept: 'text/html',
        'x-forwarded-method': 'POST',
      });
      expect(post.statusCode).toBe(401);
      const nginx = await authRequest('https://grafana.example.test/', undefined, { accept: 'text/html' });
      expect(nginx.statusCode).toBe(401);
    });

    it('refuses a user outside the access rule (403), recording access.denied at most once a minute per user and app', async () => {
      const before = Number(await deniedEvents());
      for (let i = 0; i < 3; i++) {
        const response = await forward('/d/home', 'grafana.example.test', bob);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
        expect(response.headers['remote-user']).toBeUndefined();
      }
      expect(Number(await deniedEvents())).toBe(before + 1);
      // The longest path prefix decides: /admin wants the admin role, which alice lacks; /administrator is not below it.
      expect((await forward('/admin/users', 'grafana.example.test', alice)).statusCode).toBe(403);
      expect((await forward('/administrator', 'grafana.example.test', alice)).statusCode).toBe(200);
      // Dot segments are resolved before matching: /x/../admin is /admin.
      expect((await forward('/x/../admin', 'grafana.example.test', alice)).statusCode).toBe(403);
      expect((await forward('/x/%2e%2e/admin', 'grafana.example.test', alice)).statusCode).toBe(403);
      expect((await authRequest('https://grafana.example.test/x/../admin/', alice)).statusCode).toBe(403);
      // A rule asking for a second factor refuses a password-only session.
      expect((await forward('/', 'mfa.example.test', alice)).statusCode).toBe(403);
    });

    it('answers 403 for a host that no app declares, signed in or not', async () => {
      expect((await forward('/', 'evil.example.test', alice)).statusCode).toBe(403);
      expect((await forward('/', 'evil.example.test', undefined, { accept: 'text/html' })).statusCode).toBe(403);
      expect((await authRequest('https://grafana.example.test.evil.test/', alice)).statusCode).toBe(403);
    });

    it('never takes Remote-* headers the client sent for the identity', async () => {
      const forged = { 'remote-user': 'root', 'remote-groups': 'sre,admin', 'remote-email': 'root@example.com' };
      const anonymous = await forward('/d/home', 'grafana.example.test', undefined, forged);
      expect(anonymous.statusCode).toBe(401);
      const asBob = await forward('/', 'wiki.tools.example.test', bob, forged);
      expect(asBob.statusCode).toBe(200);
      expect(asBob.headers['x-webauth-user']).toBe('bob');
      expect(asBob.headers['remote-email']).toBe('bob@example.com');
      expect(asBob.headers['remote-groups']).toBe('');
    });

    it('believes the original request only from server.trust_proxy addresses (400 UNTRUSTED_PROXY)', async () => {
      for (const url of ['/api/forward-auth', '/api/auth-request'] as const) {
        const response = await ask(
          url,
          alice,
          {
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'grafana.example.test',
            'x-forwarded-uri': '/',
            'x-original-url': 'https://grafana.example.test/',
          },
          true,
        );
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'UNTRUSTED_PROXY' });
        expect(response.headers['remote-user']).toBeUndefined();
      }
    });

    it('lets an encoded slash through only where the app would also allow the decoded path', async () => {
      // alice may use grafana (/), not its /admin entry: an app that decodes %2F reads these as /admin.
      for (const uri of ['/x/..%2Fadmin', '/x/..%2fadmin/users', '/x/..%5Cadmin', '/admin%2F']) {
        expect((await forward(uri, 'grafana.example.test', alice)).statusCode, uri).toBe(403);
        expect((await authRequest(`https://grafana.example.test${uri}`, alice)).statusCode, uri).toBe(403);
      }
      expect((await forward('/d%2Fhome', 'grafana.example.test', alice)).statusCode).toBe(200);
      const root = await signIn(t, 'root@example.com');
      expect((await forward('/x/..%2Fadmin', 'grafana.example.test', root)).statusCode).toBe(200);
    });

    it('answers garbled or missing original-request headers with 400, never 500 and never a pass', async () => {
      // Answered first, so that the fast path knows this original request: a variant of it must still be read anew.
      expect((await forward('/', 'grafana.example.test', alice)).statusCode).toBe(200);
      expect((await authRequest('https://grafana.example.test/', alice)).statusCode).toBe(200);
      const cases: Record<string, string>[] = [
        { 'x-forwarded-host': '' },
        { 'x-forwarded-proto': 'ftp' },
        { 'x-forwarded-host': 'x'.repeat(10_000) },
        { 'x-forwarded-host': `${'a'.repeat(250)}.example.test` },
        { 'x-forwarded-host': 'grafana.example.test:99999' },
        { 'x-forwarded-host': '999.1.1.1' },
        { 'x-forwarded-host': 'alice@grafana.example.test' },
        { 'x-forwarded-host': 'grafana.example.test/evil' },
        { 'x-forwarded-uri': 'relative' },
        { 'x-forwarded-uri': '/a b' },
        { 'x-forwarded-uri': `/${'a'.repeat(9000)}` },
        { 'x-forwarded-uri': '/a\u00ff' },
        { 'x-forwarded-method': 'get post' },
      ];
      for (const headers of cases) {
        const response = await forward('/', 'grafana.example.test', alice, headers);
        expect(response.statusCode, JSON.stringify(headers).slice(0, 80)).toBe(400);
        expect(response.headers['remote-user']).toBeUndefined();
      }
      const missing = await ask('/api/forward-auth', alice, { 'x-forwarded-proto': 'https' });
      expect(missing.statusCode).toBe(400);
      for (const url of [
        'grafana.example.test/',
        'javascript:alert(1)',
        'https://user:pw@grafana.example.test/',
        'https://grafana.example.test\\@evil.test/',
        `https://${'x'.repeat(10_000)}/`,
        'https://[::1]/',
      ]) {
        const response = await authRequest(url, alice);
        expect(response.statusCode, url.slice(0, 60)).toBe(400);
      }
      expect((await ask('/api/auth-request', alice, {})).statusCode).toBe(400);
    });

    it('answers any original-request text with 200, 302, 400, 401 or 403, never a 500', async () => {
      const piece = fc.constantFrom(
        'grafana.example.test',
        'https://',
        '/',
        '..',
        '%2e',
        '@',
        ':',
        '?',
        '#',
        '\\',
        'x',
        '0',
        '999.',
        '[::1]',
        ' ',
        '%00',
      );
      const text = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
      );
      await fc.assert(
        fc.asyncProperty(text, text, text, async (host, uri, url) => {
          const statuses = [(await forward(uri, host, alice)).statusCode, (await authRequest(url, alice)).statusCode];
          for (const status of statuses) expect([200, 302, 400, 401, 403]).toContain(status);
        }),
        { numRuns: 60 },
      );
    });

    it('answers a forged, truncated or foreign cookie with 401', async () => {
      const value = alice.slice('session='.length);
      for (const cookie of [
        `session=${value.slice(0, value.length - 10)}`,
        `session=${value.slice(0, 20)}`,
        `session=Fe26.2**${'a'.repeat(64)}`,
        'session=',
        `session=${value}; session=${value}`,
        'session=%00%0d%0a',
      ]) {
        const response = await forward('/', 'grafana.example.test', cookie);
        expect(response.statusCode, cookie.slice(0, 40)).toBe(401);
      }
    });

    it('ends access at the next request after sign-out, user deletion and leaving the group', async () => {
      const carolUser = await seedUser(t, { sub: 'carol', email: 'carol@example.com' });
      await joinGroup(t.database.storage, 'sre', [carolUser.sub]);
      let carol = await signIn(t, 'carol@example.com');
      expect((await forward('/', 'grafana.example.test', carol)).statusCode).toBe(200);
      await leaveGroup(t.database.storage, 'sre', ['carol']);
      expect((await forward('/', 'grafana.example.test', carol)).statusCode).toBe(403);
      // The verdicts kept for the session follow every change of what they rest on: groups, role, name.
      await joinGroup(t.database.storage, 'sre', ['carol']);
      expect((await forward('/', 'grafana.example.test', carol)).statusCode).toBe(200);
      expect((await forward('/admin', 'grafana.example.test', carol)).statusCode).toBe(403);
      await t.database.db('users').where({ sub: 'carol' }).update({ role: 'admin', name: 'Carol Admin' });
      const promoted = await forward('/admin', 'grafana.example.test', carol);
      expect(promoted.statusCode).toBe(200);
      expect(promoted.headers['remote-name']).toBe('Carol Admin');
      await t.database.db('users').where({ sub: 'carol' }).update({ role: 'user' });
      expect((await forward('/admin', 'grafana.example.test', carol)).statusCode).toBe(403);
      await leaveGroup(t.database.storage, 'sre', ['carol']);
      expect((await forward('/', 'grafana.example.test', carol)).statusCode).toBe(403);
      expect((await inject(t, 'POST', '/api/auth/logout', carol)).statusCode).toBe(204);
      expect((await forward('/', 'wiki.tools.example.test', carol)).statusCode).toBe(401);
      carol = await signIn(t, 'carol@example.com');
      expect((await forward('/', 'wiki.tools.example.test', carol)).statusCode).toBe(200);
      // A session back to waiting for a second factor (a step-up) is no signed-in session.
      await t.database.db('sessions').where({ sub: 'carol' }).update({ second_factor_pending: true });
      expect((await forward('/', 'wiki.tools.example.test', carol)).statusCode).toBe(401);
      carol = await signIn(t, 'carol@example.com');
      expect((await forward('/', 'wiki.tools.example.test', carol)).statusCode).toBe(200);
      await t.database.db('users').where({ sub: 'carol' }).update({ deleted_at: Date.now() });
      expect((await forward('/', 'wiki.tools.example.test', carol)).statusCode).toBe(401);
    });

    it('answers from memory: no statement but the shared generation read per request once warm', async () => {
      await forward('/d/home', 'grafana.example.test', alice);
      const { statements, generationReads } = await counted(async () => {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => authRequest('https://grafana.example.test/d/home', alice)),
        );
        expect(answers.every((a) => a.statusCode === 200)).toBe(true);
        for (let i = 0; i < 5; i++)
          expect((await authRequest('https://grafana.example.test/', alice)).statusCode).toBe(200);
      });
      // The generation is read on a connection of its own, outside knex; nothing else is sent.
      expect(statements).toEqual([]);
      // 20 concurrent requests share reads; each of the 5 sequential ones reads once.
      expect(generationReads).toBeLessThanOrEqual(5 + 20);
      expect(generationReads).toBeGreaterThanOrEqual(5);
    });

    it('asks the service once per refused request, and remembers a session that ended', async () => {
      const ended = await signIn(t, 'bob@example.com');
      expect((await inject(t, 'POST', '/api/auth/logout', ended)).statusCode).toBe(204);
      // Warm: the sign-out moved the generation, so the first answers look the session up again.
      expect((await authRequest('https://grafana.example.test/', ended)).statusCode).toBe(401);
      expect((await authRequest('https://grafana.example.test/', bob)).statusCode).toBe(403);
      const { statements, generationReads } = await counted(async () => {
        for (let i = 0; i < 3; i++) {
          expect((await authRequest('https://grafana.example.test/', ended)).statusCode).toBe(401);
          expect((await authRequest('https://grafana.example.test/', bob)).statusCode).toBe(403);
        }
      });
      // The ended session is no lookup any more, and the route reuses the fast path's verdict: one read each.
      expect(statements).toEqual([]);
      expect(generationReads).toBe(6);
    });
  },
);

describe.each(databaseKinds)('forward authentication over time on %s', (kind) => {
  let t: TestApp;
  let now = Date.now();
  const clock = { now: () => now };
  const check = (cookie: string) =>
    inject(t, 'GET', '/api/auth-request', cookie, undefined, { 'x-original-url': 'https://grafana.example.test/' });

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
        forwardAuth: { cookieDomain: null, apps: [app('grafana.example.test')] },
      },
      { clock },
    );
    // A tab cannot travel in a header: it is sent percent-escaped.
    await seedUser(t, { sub: 'dora', email: 'dora@example.com', name: 'Dora\tExample' });
  });
  afterAll(() => t.destroy());

  it('keeps an active session alive (last_seen_at at most once a minute), ends an idle or expired one', async () => {
    const dora = await signIn(t, 'dora@example.com');
    const first = await check(dora);
    expect(first.statusCode).toBe(200);
    expect(first.headers['remote-name']).toBe('Dora%09Example');
    const lastSeen = async () =>
      Number((await t.database.db('sessions').where({ sub: 'dora' }).first('last_seen_at'))?.last_seen_at);
    const signedInAt = await lastSeen();
    now += 30_000;
    expect((await check(dora)).statusCode).toBe(200);
    expect(await lastSeen()).toBe(signedInAt);
    now += 40 * 60_000;
    expect((await check(dora)).statusCode).toBe(200);
    expect(await lastSeen()).toBe(now);
    // Active on idp's own pages only, the session stays alive for the apps too.
    now += 50 * 60_000;
    expect((await inject(t, 'GET', '/api/auth/session', dora)).statusCode).toBe(200);
    now += 50 * 60_000;
    expect((await check(dora)).statusCode).toBe(200);
    // security.session_idle_ttl_seconds (1 h in the test config) without a request.
    now += 61 * 60_000;
    expect((await check(dora)).statusCode).toBe(401);

    const again = await signIn(t, 'dora@example.com');
    for (let hours = 0.75; hours < 24; hours += 0.75) {
      now += 45 * 60_000;
      expect((await check(again)).statusCode, `after ${hours} h`).toBe(200);
    }
    // security.session_ttl_seconds (24 h in the test config) since sign-in, however active.
    now += 60 * 60_000;
    expect((await check(again)).statusCode).toBe(401);
  });
});

describe.each(databaseKinds)('forward_auth.cookie_domain on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      server: { ...base.server, host: '127.0.0.1', port: 0, baseUrl: 'https://id.example.test' },
      forwardAuth: { cookieDomain: 'example.test', apps: [app('grafana.example.test')] },
    });
    await seedUser(t, { sub: 'erin', email: 'erin@example.com' });
  });
  afterAll(() => t.destroy());

  it('sets the session cookie for the domain, and idp still refuses its unsafe routes to the apps’ origins', async () => {
    const login = await inject(t, 'POST', '/api/auth/login', undefined, {
      email: 'erin@example.com',
      password: testPassword,
    });
    const setCookie = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('session='));
    expect(setCookie?.split(';').map((a) => a.trim().toLowerCase())).toEqual(
      expect.arrayContaining(['domain=example.test', 'httponly', 'samesite=lax', 'secure']),
    );
    const cookie = setCookie!.split(';')[0];
    // A page of an app below the cookie's domain is same-site: SameSite=Lax sends the cookie, the Origin rule refuses.
    for (const [method, url] of [
      ['POST', '/api/auth/logout'],
      ['PATCH', '/api/user'],
      ['DELETE', '/api/user'],
    ]) {
      const response = await inject(t, method, url, cookie, {}, { origin: 'https://grafana.example.test' });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    }
    expect((await inject(t, 'GET', '/api/auth/session', cookie)).statusCode).toBe(200);
    const logout = await inject(t, 'POST', '/api/auth/logout', cookie, undefined, {
      origin: 'https://id.example.test',
    });
    expect(logout.statusCode).toBe(204);
    const cleared = [logout.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('session='));
    expect(cleared?.toLowerCase()).toContain('domain=example.test');
  });
});
