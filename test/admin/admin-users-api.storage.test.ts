import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import {
  EMAIL_EXISTS,
  FORBIDDEN,
  NOT_EDITABLE,
  NOT_FOUND,
  UNAUTHORIZED,
  adminUserFields,
  sessionUserFields,
} from '../support/spec-shapes.js';

/** docs/http-api.md, "Admin API", row by row, with the exact messages, through the real server. */

describe.each(databaseKinds)('admin users API on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let userCookie: string;
  const deletedAt = Date.UTC(2026, 0, 2, 3, 4, 5);

  const call = (method: string, url: string, cookie?: string, payload?: unknown) =>
    inject(t, method, url, cookie, payload);

  beforeAll(async () => {
    t = await createTestApp(kind);
    await seedUser(t, { sub: 'root', role: 'admin', email: 'Root@Example.com' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    await seedUser(t, { sub: 'cfg-admin', managedBy: 'config', role: 'admin', email: 'cfg@example.com' });
    await seedUser(t, { sub: 'gone', email: 'gone@example.com', deletedAt });
    await seedUser(t, { sub: 'nopass', email: 'nopass@example.com', passwordHash: null, emailVerified: false });
    for (let i = 0; i < 25; i++)
      await seedUser(t, {
        sub: `bulk-${String(i).padStart(2, '0')}`,
        email: `bulk${String(i).padStart(2, '0')}@bulk.test`,
      });
    admin = await signIn(t, 'root@example.com');
    userCookie = await signIn(t, 'bob@example.com');
  });
  afterAll(() => t.destroy());

  describe('authentication and permission', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/me'],
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users', { email: 'new@example.com', password: 'x' }],
      ['GET', '/api/admin/users/bob'],
      ['PATCH', '/api/admin/users/bob', { role: 'admin' }],
      ['DELETE', '/api/admin/users/bob'],
    ];
    it.each(routes)('%s %s without a session is 401 UNAUTHORIZED', async (method, url, payload) => {
      const response = await call(method, url, undefined, payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    });
    it.each(routes)('%s %s with a forged cookie is 401 UNAUTHORIZED', async (method, url, payload) => {
      const response = await call(method, url, 'session=Fe26.2**forged', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    });
    it.each(routes)('%s %s as a non-admin is 403 FORBIDDEN and changes nothing', async (method, url, payload) => {
      const response = await call(method, url, userCookie, payload);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
      const bob = await knexUserRepository.findBySub(t.database.tx, 'bob');
      expect(bob?.role).toBe('user');
      expect(bob?.deletedAt).toBeNull();
      expect(await knexUserRepository.findLiveByEmail(t.database.tx, 'new@example.com')).toBeNull();
    });
  });

  describe('GET /api/admin/me', () => {
    it('answers the eleven-field session user, without deleted_at', async () => {
      const response = await call('GET', '/api/admin/me', admin);
      expect(response.statusCode).toBe(200);
      const { user } = response.json();
      expect(Object.keys(user).sort()).toEqual(sessionUserFields);
      expect(user).toEqual({
        managed_by: 'database',
        sub: 'root',
        email: 'Root@Example.com',
        role: 'admin',
        email_verified: true,
        email_verification_required: false,
        has_password: true,
        totp_registered: false,
        totp_recovery_codes_missing: false,
        second_factor_required: false,
        passkey_count: 0,
      });
    });
  });

  describe('GET /api/admin/users', () => {
    it('lists live users with the twelve fields and the pagination object (defaults page 1, page_size 20)', async () => {
      const response = await call('GET', '/api/admin/users', admin);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.pagination).toEqual({ page: 1, page_size: 20, total: 29 });
      expect(body.users).toHaveLength(20);
      for (const user of body.users) expect(Object.keys(user).sort()).toEqual(adminUserFields);
      expect(body.users.map((u: { sub: string }) => u.sub)).not.toContain('gone');
    });

    it('pages through the list in a stable order', async () => {
      const first = (await call('GET', '/api/admin/users?page=1&page_size=10', admin)).json();
      const second = (await call('GET', '/api/admin/users?page=2&page_size=10', admin)).json();
      const third = (await call('GET', '/api/admin/users?page=3&page_size=10', admin)).json();
      const subs = [...first.users, ...second.users, ...third.users].map((u: { sub: string }) => u.sub);
      expect(new Set(subs).size).toBe(29);
      expect(third.pagination).toEqual({ page: 3, page_size: 10, total: 29 });
      const beyond = (await call('GET', '/api/admin/users?page=99', admin)).json();
      expect(beyond).toEqual({ users: [], pagination: { page: 99, page_size: 20, total: 29 } });
    });

    it('accepts the bounds page_size 1 and 100', async () => {
      expect((await call('GET', '/api/admin/users?page_size=1', admin)).json().users).toHaveLength(1);
      expect((await call('GET', '/api/admin/users?page_size=100', admin)).json().users).toHaveLength(29);
    });

    it.each([
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page_size=0',
      'page_size=101',
      'page_size=x',
      'include_deleted=maybe',
      'managed_by=ldap',
      'role=root',
      'unknown=1',
    ])('rejects %s with 400 VALIDATION_ERROR and details', async (query) => {
      const response = await call('GET', `/api/admin/users?${query}`, admin);
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(typeof body.message).toBe('string');
      expect(body.details[0].path).toMatch(/^query\./);
    });

    it('includes soft-deleted users only with include_deleted=true', async () => {
      const without = (await call('GET', '/api/admin/users?query=gone', admin)).json();
      expect(without.users).toEqual([]);
      const withDeleted = (await call('GET', '/api/admin/users?query=gone&include_deleted=true', admin)).json();
      expect(withDeleted.users).toHaveLength(1);
      expect(withDeleted.users[0].deleted_at).toBe('2026-01-02T03:04:05.000Z');
      expect((await call('GET', '/api/admin/users?query=gone&include_deleted=false', admin)).json().users).toEqual([]);
    });

    it('matches query as a case-insensitive substring of the e-mail or the sub', async () => {
      const byEmail = (await call('GET', '/api/admin/users?query=EXAMPLE.COM', admin)).json();
      expect(byEmail.users.map((u: { sub: string }) => u.sub).sort()).toEqual(['bob', 'cfg-admin', 'nopass', 'root']);
      const bySub = (await call('GET', '/api/admin/users?query=BULK-1', admin)).json();
      expect(bySub.pagination.total).toBe(10);
      const byPart = (await call('GET', '/api/admin/users?query=oo', admin)).json();
      expect(byPart.users.map((u: { sub: string }) => u.sub)).toEqual(['root']);
    });

    it('treats LIKE wildcards and SQL metacharacters as plain text', async () => {
      for (const query of ['%', '_', "' OR 1=1 --", '"; DROP TABLE users; --', '\\', '%_%']) {
        const response = await call('GET', `/api/admin/users?query=${encodeURIComponent(query)}`, admin);
        expect(response.statusCode).toBe(200);
        expect(response.json().users).toEqual([]);
      }
      expect((await call('GET', '/api/admin/users', admin)).json().pagination.total).toBe(29);
    });

    it('filters by managed_by and role', async () => {
      const config = (await call('GET', '/api/admin/users?managed_by=config', admin)).json();
      expect(config.users.map((u: { sub: string }) => u.sub)).toEqual(['cfg-admin']);
      const admins = (await call('GET', '/api/admin/users?role=admin', admin)).json();
      expect(admins.users.map((u: { sub: string }) => u.sub).sort()).toEqual(['cfg-admin', 'root']);
      const dbAdmins = (await call('GET', '/api/admin/users?role=admin&managed_by=database', admin)).json();
      expect(dbAdmins.users.map((u: { sub: string }) => u.sub)).toEqual(['root']);
      expect((await call('GET', '/api/admin/users?query=nopass', admin)).json().users[0]).toMatchObject({
        has_password: false,
        email_verified: false,
      });
    });
  });

  describe('POST /api/admin/users', () => {
    it('creates a database-managed user (201) with a UUID sub and an argon2id hash, who can sign in', async () => {
      const response = await call('POST', '/api/admin/users', admin, { email: 'carol@example.com', password: 'pw' });
      expect(response.statusCode).toBe(201);
      const { user } = response.json();
      expect(Object.keys(user).sort()).toEqual(adminUserFields);
      expect(user).toMatchObject({
        managed_by: 'database',
        email: 'carol@example.com',
        role: 'user',
        email_verified: false,
        email_verification_required: false,
        has_password: true,
        deleted_at: null,
      });
      expect(user.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const stored = await knexUserRepository.findBySub(t.database.tx, user.sub);
      expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
      await signIn(t, 'carol@example.com', 'pw');
    });

    it('honours role and email_verified', async () => {
      const response = await call('POST', '/api/admin/users', admin, {
        email: 'dave@example.com',
        password: 'x'.repeat(256),
        role: 'admin',
        email_verified: true,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().user).toMatchObject({ role: 'admin', email_verified: true });
    });

    it('answers 409 EMAIL_ALREADY_EXISTS for a registered e-mail, compared case-insensitively', async () => {
      for (const email of ['bob@example.com', 'BOB@example.com', 'cfg@EXAMPLE.com']) {
        const response = await call('POST', '/api/admin/users', admin, { email, password: 'pw' });
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual(EMAIL_EXISTS);
      }
    });

    it('allows the e-mail of a soft-deleted user', async () => {
      const response = await call('POST', '/api/admin/users', admin, { email: 'gone@example.com', password: 'pw' });
      expect(response.statusCode).toBe(201);
    });
  });

  describe('GET /api/admin/users/{sub}', () => {
    it('returns any user, soft-deleted ones too', async () => {
      expect((await call('GET', '/api/admin/users/bob', admin)).json().user).toMatchObject({
        sub: 'bob',
        deleted_at: null,
      });
      expect((await call('GET', '/api/admin/users/cfg-admin', admin)).json().user).toMatchObject({
        managed_by: 'config',
      });
      expect((await call('GET', '/api/admin/users/gone', admin)).json().user.deleted_at).toBe(
        '2026-01-02T03:04:05.000Z',
      );
    });

    it('answers 404 USER_NOT_FOUND for an unknown sub', async () => {
      const response = await call('GET', '/api/admin/users/nobody', admin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });

    it('accepts a sub of 255 characters and rejects 256', async () => {
      expect((await call('GET', `/api/admin/users/${'a'.repeat(255)}`, admin)).statusCode).toBe(404);
      const response = await call('GET', `/api/admin/users/${'a'.repeat(256)}`, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    });
  });

  describe('PATCH /api/admin/users/{sub}', () => {
    it('updates email, role and email_verified', async () => {
      await seedUser(t, { sub: 'erin', email: 'erin@example.com', emailVerified: false });
      const response = await call('PATCH', '/api/admin/users/erin', admin, {
        email: 'Erin@New.example',
        role: 'admin',
        email_verified: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({
        sub: 'erin',
        email: 'Erin@New.example',
        role: 'admin',
        email_verified: true,
      });
      expect((await call('GET', '/api/admin/users/erin', admin)).json().user.email).toBe('Erin@New.example');
    });

    it('changes nothing with an empty body', async () => {
      const response = await call('PATCH', '/api/admin/users/bob', admin, {});
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ sub: 'bob', email: 'bob@example.com', role: 'user' });
    });

    it('lets a user keep their own e-mail in another case', async () => {
      const response = await call('PATCH', '/api/admin/users/bob', admin, { email: 'BOB@example.com' });
      expect(response.statusCode).toBe(200);
      await call('PATCH', '/api/admin/users/bob', admin, { email: 'bob@example.com' });
    });

    it('answers 403 USER_NOT_EDITABLE for a config-managed user, a soft-deleted user, and an admin changing their own role', async () => {
      for (const [sub, body] of [
        ['cfg-admin', { email_verified: false }],
        ['gone', { role: 'admin' }],
        ['root', { role: 'user' }],
      ] as const) {
        const response = await call('PATCH', `/api/admin/users/${sub}`, admin, body);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(NOT_EDITABLE);
      }
      expect((await knexUserRepository.findBySub(t.database.tx, 'root'))?.role).toBe('admin');
    });

    it('lets an admin change their own e-mail flag', async () => {
      expect((await call('PATCH', '/api/admin/users/root', admin, { email_verified: true })).statusCode).toBe(200);
    });

    it('answers 404 USER_NOT_FOUND and 409 EMAIL_ALREADY_EXISTS', async () => {
      const missing = await call('PATCH', '/api/admin/users/nobody', admin, { role: 'admin' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(NOT_FOUND);
      const taken = await call('PATCH', '/api/admin/users/bob', admin, { email: 'ROOT@example.com' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual(EMAIL_EXISTS);
    });
  });

  describe('DELETE /api/admin/users/{sub}', () => {
    it('soft-deletes, returns deleted_at in ISO 8601 UTC, and revokes the sessions at once', async () => {
      await seedUser(t, { sub: 'frank', email: 'frank@example.com' });
      const frank = await signIn(t, 'frank@example.com');
      expect((await call('GET', '/api/auth/session', frank)).statusCode).toBe(200);
      const response = await call('DELETE', '/api/admin/users/frank', admin);
      expect(response.statusCode).toBe(200);
      const { user } = response.json();
      expect(user.sub).toBe('frank');
      expect(user.deleted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect((await call('GET', '/api/auth/session', frank)).statusCode).toBe(401);
      const sessions = await t.database.db('sessions').where({ sub: 'frank' });
      expect(sessions).toEqual([]);
      const login = await call('POST', '/api/auth/login', undefined, {
        email: 'frank@example.com',
        password: testPassword,
      });
      expect(login.statusCode).toBe(401);
      // Deleting again returns the user unchanged.
      const again = await call('DELETE', '/api/admin/users/frank', admin);
      expect(again.statusCode).toBe(200);
      expect(again.json().user.deleted_at).toBe(user.deleted_at);
      expect((await call('GET', '/api/admin/users?query=frank', admin)).json().users).toEqual([]);
    });

    it('answers 403 USER_NOT_EDITABLE for a config-managed user and for the caller themself', async () => {
      for (const sub of ['cfg-admin', 'root']) {
        const response = await call('DELETE', `/api/admin/users/${sub}`, admin);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(NOT_EDITABLE);
        expect((await knexUserRepository.findBySub(t.database.tx, sub))?.deletedAt).toBeNull();
      }
    });

    it('answers 404 USER_NOT_FOUND for an unknown sub', async () => {
      const response = await call('DELETE', '/api/admin/users/nobody', admin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  it('a demoted admin loses admin access on the next request', async () => {
    await seedUser(t, { sub: 'grace', email: 'grace@example.com', role: 'admin' });
    const grace = await signIn(t, 'grace@example.com');
    expect((await call('GET', '/api/admin/me', grace)).statusCode).toBe(200);
    await call('PATCH', '/api/admin/users/grace', admin, { role: 'user' });
    const response = await call('GET', '/api/admin/me', grace);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(FORBIDDEN);
  });
});
