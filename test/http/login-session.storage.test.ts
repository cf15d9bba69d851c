import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import {
  createTestApp,
  inject,
  seedUser,
  sessionCookieOf,
  signIn,
  testPassword,
  type TestApp,
} from '../support/test-app.js';
import { UNAUTHORIZED, sessionUserFields } from '../support/spec-shapes.js';

/** Sessions (docs/http-api.md, "Sessions and login"), the login rate limit and the Origin rule, through the real server. */
const INVALID = { code: 'INVALID_CREDENTIALS', message: 'The email or password is incorrect.' };

function setCookies(header: string | string[] | undefined): string[] {
  return Array.isArray(header) ? header : header ? [header] : [];
}

function sessionSetCookie(header: string | string[] | undefined): string {
  const cookie = setCookies(header).find((c) => c.startsWith('session='));
  if (!cookie) throw new Error('no session cookie was set');
  return cookie;
}

describe.each(databaseKinds)('login and sessions on %s', (kind) => {
  let t: TestApp;
  const login = (email: string, password: string, headers: Record<string, string> = {}) =>
    inject(t, 'POST', '/api/auth/login', undefined, { email, password }, headers);

  beforeAll(async () => {
    const base = testConfig();
    // trust_proxy so that tests can pick client addresses through X-Forwarded-For.
    t = await createTestApp(kind, { server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } } });
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    await seedUser(t, { sub: 'alice', email: 'alice@example.com' });
    await seedUser(t, { sub: 'gone', email: 'gone@example.com', deletedAt: Date.now() - 1000 });
  });
  afterAll(() => t.destroy());

  describe('POST /api/auth/login', () => {
    it('answers 200 { user } with the eleven session-user fields and an HttpOnly, SameSite=Lax, Path=/ cookie, not Secure on http', async () => {
      const response = await login('Alice@Example.com', testPassword, { 'x-forwarded-for': '10.0.0.1' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['user']);
      expect(Object.keys(body.user).sort()).toEqual(sessionUserFields);
      expect(body.user).toMatchObject({
        sub: 'alice',
        email: 'alice@example.com',
        managed_by: 'database',
        role: 'user',
        has_password: true,
      });
      const cookie = sessionSetCookie(response.headers['set-cookie']);
      const attributes = cookie.split(';').map((a) => a.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      expect(attributes).not.toContain('secure');
      expect(cookie).toMatch(/^session=Fe26\.2\*/);
    });

    it('answers the same 401 INVALID_CREDENTIALS for a wrong password, an unknown e-mail and a soft-deleted user', async () => {
      const wrong = await login('alice@example.com', 'not the password', { 'x-forwarded-for': '10.0.1.1' });
      const unknown = await login('nobody@example.com', testPassword, { 'x-forwarded-for': '10.0.1.2' });
      const deleted = await login('gone@example.com', testPassword, { 'x-forwarded-for': '10.0.1.3' });
      for (const response of [wrong, unknown, deleted]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(INVALID);
        expect(setCookies(response.headers['set-cookie']).some((c) => /^session=[^;]/.test(c))).toBe(false);
      }
    });

    it('answers 400 VALIDATION_ERROR without e-mail or password', async () => {
      const response = await inject(t, 'POST', '/api/auth/login', undefined, { email: 'alice@example.com' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    });
  });

  describe('GET /api/auth/session and POST /api/auth/logout', () => {
    it('GET /api/auth/session answers the user and the session with a cookie, 401 without', async () => {
      const cookie = await signIn(t, 'alice@example.com');
      const response = await inject(t, 'GET', '/api/auth/session', cookie);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body.user).sort()).toEqual(sessionUserFields);
      expect(body.user.sub).toBe('alice');
      expect(body.session.amr).toEqual(['pwd']);
      expect(Date.parse(body.session.expires_at)).toBeGreaterThan(Date.now());
      const anonymous = await inject(t, 'GET', '/api/auth/session');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(UNAUTHORIZED);
    });

    it('logout ends the session at once: the old cookie is refused afterwards', async () => {
      const cookie = await signIn(t, 'root@example.com');
      expect((await inject(t, 'GET', '/api/admin/me', cookie)).statusCode).toBe(200);
      const out = await inject(t, 'POST', '/api/auth/logout', cookie);
      expect(out.statusCode).toBe(204);
      const cleared = sessionSetCookie(out.headers['set-cookie']);
      expect(cleared).toMatch(/^session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
      const after = await inject(t, 'GET', '/api/admin/me', cookie);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual(UNAUTHORIZED);
      expect((await inject(t, 'GET', '/api/auth/session', cookie)).statusCode).toBe(401);
    });

    it('logout without a session still answers 204', async () => {
      expect((await inject(t, 'POST', '/api/auth/logout')).statusCode).toBe(204);
    });

    it('a tampered cookie is 401', async () => {
      const cookie = await signIn(t, 'root@example.com');
      const value = cookie.slice('session='.length);
      const flipped = value.slice(0, 40) + (value[40] === 'A' ? 'B' : 'A') + value.slice(41);
      for (const bad of [`session=${flipped}`, `session=${value}x`, 'session=garbage']) {
        const response = await inject(t, 'GET', '/api/admin/me', bad);
        expect(response.statusCode, bad).toBe(401);
        expect(response.json()).toEqual(UNAUTHORIZED);
      }
    });
  });

  describe('the Origin rule', () => {
    const own = 'http://localhost:8080';
    const newUser = (n: number) => ({ email: `origin${n}@example.com`, password: 'a good password' });

    it('refuses a cookie-authenticated unsafe request from a foreign Origin with 403 JSON and changes nothing', async () => {
      const cookie = await signIn(t, 'root@example.com');
      const create = await inject(t, 'POST', '/api/admin/users', cookie, newUser(1), {
        origin: 'https://evil.example',
      });
      expect(create.statusCode).toBe(403);
      expect(create.json()).toEqual({ code: 'ORIGIN_NOT_ALLOWED', message: expect.any(String) });
      const logout = await inject(t, 'POST', '/api/auth/logout', cookie, undefined, { origin: 'https://evil.example' });
      expect(logout.statusCode).toBe(403);
      // The refused logout left the session alive.
      expect((await inject(t, 'GET', '/api/admin/me', cookie)).statusCode).toBe(200);
      const list = await inject(t, 'GET', '/api/admin/users?query=origin1', cookie);
      expect(list.json().users).toEqual([]);
    });

    it("allows the same requests with the service's own Origin and without Origin", async () => {
      const cookie = await signIn(t, 'root@example.com');
      expect((await inject(t, 'POST', '/api/admin/users', cookie, newUser(2), { origin: own })).statusCode).toBe(201);
      expect((await inject(t, 'POST', '/api/admin/users', cookie, newUser(3))).statusCode).toBe(201);
      expect((await inject(t, 'POST', '/api/auth/logout', cookie, undefined, { origin: own })).statusCode).toBe(204);
      const other = await signIn(t, 'root@example.com');
      expect((await inject(t, 'POST', '/api/auth/logout', other)).statusCode).toBe(204);
    });

    it('refuses a login from a foreign Origin', async () => {
      const response = await login('alice@example.com', testPassword, {
        origin: 'https://evil.example',
        'x-forwarded-for': '10.0.2.1',
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
      expect(setCookies(response.headers['set-cookie']).some((c) => /^session=[^;]/.test(c))).toBe(false);
    });
  });
});

describe.each(databaseKinds)('login rate limit on %s', (kind) => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof createApp>>;
  const maxAttempts = 3;
  const addressMaxAttempts = 6;

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
      security: { ...base.security, loginRateLimit: { maxAttempts, addressMaxAttempts, windowSeconds: 600 } },
    });
    const subs = [
      'victim',
      'a1',
      'a2',
      'a3',
      'a4',
      'a5',
      'a6',
      'a7',
      'shared',
      'burst',
      'regular',
      'office',
      'boss',
      'locked',
      'root',
    ];
    for (const sub of subs)
      await seedUser(t, { sub, email: `${sub}@example.com`, role: sub === 'root' ? 'admin' : 'user' });
    second = await createApp(t.config, { storage: t.database.storage, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await second.stop({ timeoutMs: 1000 });
    await t.destroy();
  });

  const attempt = (app: typeof second, email: string, password: string, address: string) =>
    app.server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': address },
    });

  function expect429(response: Awaited<ReturnType<typeof attempt>>) {
    expect(response.statusCode).toBe(429);
    const body = JSON.parse(response.payload);
    expect(body).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.any(String) });
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
  }

  it('blocks an account after max_attempts failures, from any address, even with the right password', async () => {
    for (let i = 0; i < maxAttempts; i++)
      expect((await attempt(t.app, 'victim@example.com', 'wrong', `10.1.0.${i}`)).statusCode).toBe(401);
    expect429(await attempt(t.app, 'victim@example.com', testPassword, '10.1.0.99'));
    expect429(await attempt(t.app, 'VICTIM@example.com', testPassword, '10.1.0.98'));
    // Another account is not affected.
    expect((await attempt(t.app, 'a4@example.com', testPassword, '10.1.0.97')).statusCode).toBe(200);
  });

  it("an account's failures below the address limit never block another account from that address (an office behind NAT)", async () => {
    const office = '10.7.0.1';
    for (let i = 0; i < maxAttempts; i++)
      expect((await attempt(t.app, 'office@example.com', 'wrong', office)).statusCode).toBe(401);
    expect429(await attempt(t.app, 'office@example.com', testPassword, office));
    // The colleague (the admin, say) behind the same address signs in with the right password.
    expect((await attempt(second, 'boss@example.com', testPassword, office)).statusCode).toBe(200);
  });

  it('blocks a client address after address_max_attempts failures, whatever the accounts', async () => {
    const address = '10.2.0.1';
    for (const sub of ['a1', 'a2', 'a3', 'a5', 'a6', 'a7'])
      expect((await attempt(t.app, `${sub}@example.com`, 'wrong', address)).statusCode).toBe(401);
    expect429(await attempt(t.app, 'a4@example.com', testPassword, address));
    expect((await attempt(t.app, 'a4@example.com', testPassword, '10.2.0.2')).statusCode).toBe(200);
  });

  it('shares the counters through the database: two instances see the same counter', async () => {
    expect((await attempt(t.app, 'shared@example.com', 'wrong', '10.3.0.1')).statusCode).toBe(401);
    expect((await attempt(second, 'shared@example.com', 'wrong', '10.3.0.2')).statusCode).toBe(401);
    expect((await attempt(t.app, 'shared@example.com', 'wrong', '10.3.0.3')).statusCode).toBe(401);
    expect429(await attempt(second, 'shared@example.com', testPassword, '10.3.0.4'));
    expect429(await attempt(t.app, 'shared@example.com', testPassword, '10.3.0.5'));
  });

  it('a burst of parallel guesses on two instances gets at most max_attempts password checks', async () => {
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        attempt(i % 2 ? second : t.app, 'burst@example.com', 'wrong', `10.4.0.${i}`),
      ),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(maxAttempts);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    for (const response of burst.filter((r) => r.statusCode === 429)) expect429(response);
    expect429(await attempt(t.app, 'burst@example.com', testPassword, '10.4.1.1'));
  });

  it('a burst of parallel guesses from one address across many accounts gets at most address_max_attempts password checks', async () => {
    const address = '10.5.0.1';
    const burst = await Promise.all(
      Array.from({ length: 16 }, (_, i) => attempt(i % 2 ? second : t.app, `spray-${i}@example.com`, 'wrong', address)),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(addressMaxAttempts);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect429(await attempt(t.app, 'regular@example.com', testPassword, address));
  });

  it('successful sign-ins never add up against their address', async () => {
    const address = '10.6.0.1';
    for (let i = 0; i < addressMaxAttempts * 2; i++)
      expect((await attempt(i % 2 ? second : t.app, 'regular@example.com', testPassword, address)).statusCode).toBe(
        200,
      );
    // The address still has all its failures to spend: address_max_attempts - 1 wrong ones leave a right one through.
    for (let i = 0; i < addressMaxAttempts - 1; i++)
      expect((await attempt(t.app, `nobody-${i}@example.com`, 'wrong', address)).statusCode).toBe(401);
    expect((await attempt(t.app, 'regular@example.com', testPassword, address)).statusCode).toBe(200);
  });

  it('POST /api/admin/users/{sub}/unlock clears the account block at once, on every instance', async () => {
    for (let i = 0; i < maxAttempts; i++)
      expect((await attempt(t.app, 'locked@example.com', 'wrong', `10.8.0.${i}`)).statusCode).toBe(401);
    expect429(await attempt(second, 'locked@example.com', testPassword, '10.8.1.1'));
    const admin = sessionCookieOf(
      (await attempt(t.app, 'root@example.com', testPassword, '10.8.2.1')).headers['set-cookie'],
    );
    const unlock = await t.app.server.inject({
      method: 'POST',
      url: '/api/admin/users/locked/unlock',
      headers: { cookie: admin },
    });
    expect(unlock.statusCode).toBe(204);
    expect(unlock.payload).toBe('');
    expect((await attempt(second, 'locked@example.com', testPassword, '10.8.1.1')).statusCode).toBe(200);
  });

  it('GET /api/admin/locked-users names the blocked accounts among the subs asked for, until when', async () => {
    await seedUser(t, { sub: 'listed', email: 'Listed@example.com' });
    const admin = sessionCookieOf(
      (await attempt(t.app, 'root@example.com', testPassword, '10.7.2.1')).headers['set-cookie'],
    );
    const locked = async (query: string) => {
      const response = await t.app.server.inject({
        url: `/api/admin/locked-users?${query}`,
        headers: { cookie: admin },
      });
      return { status: response.statusCode, body: JSON.parse(response.payload) };
    };
    expect(await locked('sub=listed&sub=alice&sub=nobody')).toEqual({ status: 200, body: { users: [] } });
    // Counted against the e-mail as typed, compared case-insensitively.
    for (let i = 0; i < maxAttempts; i++)
      expect((await attempt(t.app, 'LISTED@example.com', 'wrong', `10.7.0.${i}`)).statusCode).toBe(401);
    const before = Date.now();
    const answer = await locked('sub=listed&sub=root&sub=nobody');
    expect(answer).toEqual({
      status: 200,
      body: { users: [{ sub: 'listed', locked_until: expect.stringMatching(/Z$/) }] },
    });
    const until = Date.parse(answer.body.users[0].locked_until);
    expect(until).toBeGreaterThan(before);
    expect(until).toBeLessThanOrEqual(Date.now() + 600_000);
    expect((await locked('sub=listed')).body.users).toHaveLength(1);
    expect((await locked('sub=nobody')).body).toEqual({ users: [] });

    // One failure short of the limit is no block.
    await attempt(t.app, 'root@example.com', 'wrong', '10.7.3.1');
    expect((await locked('sub=root')).body).toEqual({ users: [] });

    await t.app.server.inject({ method: 'POST', url: '/api/admin/users/listed/unlock', headers: { cookie: admin } });
    expect((await locked('sub=listed')).body).toEqual({ users: [] });

    expect((await locked('')).status).toBe(400);
    expect((await locked(Array.from({ length: 101 }, (_, i) => `sub=s${i}`).join('&'))).status).toBe(400);
    const user = sessionCookieOf(
      (await attempt(t.app, 'a5@example.com', testPassword, '10.7.4.1')).headers['set-cookie'],
    );
    expect(
      (await t.app.server.inject({ url: '/api/admin/locked-users?sub=listed', headers: { cookie: user } })).statusCode,
    ).toBe(403);
    expect((await t.app.server.inject({ url: '/api/admin/locked-users?sub=listed' })).statusCode).toBe(401);
  });

  it('unlock: 404 USER_NOT_FOUND for an unknown sub, 403 for a non-admin, 401 without a session', async () => {
    const admin = sessionCookieOf(
      (await attempt(t.app, 'root@example.com', testPassword, '10.9.0.1')).headers['set-cookie'],
    );
    const unknown = await t.app.server.inject({
      method: 'POST',
      url: '/api/admin/users/nobody/unlock',
      headers: { cookie: admin },
    });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.payload)).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found.' });
    const user = sessionCookieOf(
      (await attempt(t.app, 'a4@example.com', testPassword, '10.9.0.2')).headers['set-cookie'],
    );
    expect(
      (await t.app.server.inject({ method: 'POST', url: '/api/admin/users/locked/unlock', headers: { cookie: user } }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.server.inject({ method: 'POST', url: '/api/admin/users/locked/unlock' })).statusCode).toBe(401);
  });
});

describe('session cookie on an https base_url', () => {
  let t: TestApp;
  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp('sqlite', {
      server: { ...base.server, baseUrl: 'https://id.example.com', host: '127.0.0.1', port: 0 },
    });
    await seedUser(t, { sub: 'alice', email: 'alice@example.com' });
  });
  afterAll(() => t.destroy());

  it('marks the session cookie Secure', async () => {
    const response = await inject(t, 'POST', '/api/auth/login', undefined, {
      email: 'alice@example.com',
      password: testPassword,
    });
    expect(response.statusCode).toBe(200);
    const cookie = sessionSetCookie(response.headers['set-cookie']);
    expect(cookie.split(';').map((a) => a.trim().toLowerCase())).toEqual(
      expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']),
    );
    // The cookie still authenticates (inject is plain http, which hapi accepts for a Secure cookie it receives).
    expect(
      (await inject(t, 'GET', '/api/auth/session', sessionCookieOf(response.headers['set-cookie']))).statusCode,
    ).toBe(200);
  });
});

describe('login rate limit without server.trust_proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp('sqlite', {
      security: { ...base.security, loginRateLimit: { maxAttempts: 2, addressMaxAttempts: 2, windowSeconds: 60 } },
    });
    for (const sub of ['p1', 'p2', 'p3']) await seedUser(t, { sub, email: `${sub}@example.com` });
  });
  afterAll(() => t.destroy());

  it('ignores X-Forwarded-For, so a direct client cannot pick a fresh address per attempt', async () => {
    const attempt = (email: string, password: string, forwarded: string) =>
      inject(t, 'POST', '/api/auth/login', undefined, { email, password }, { 'x-forwarded-for': forwarded });
    expect((await attempt('p1@example.com', 'wrong', '192.0.2.1')).statusCode).toBe(401);
    expect((await attempt('p2@example.com', 'wrong', '192.0.2.2')).statusCode).toBe(401);
    const blocked = await attempt('p3@example.com', testPassword, '192.0.2.3');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
