import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { applyConfig, ApplyConflictError } from '../../src/gitops/index.js';
import { testConfig, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';
import { NOT_EDITABLE, NOT_FOUND, UNAUTHORIZED } from '../support/spec-shapes.js';
import { manualClock, type ManualClock } from '../scheduler/scheduler-fixture.js';

/**
 * docs/http-api.md, "Your own account": DELETE /api/user through the real server, with a clock the
 * test moves: the recent sign-in rule, and cleanup's erasure after
 * account_deletion.grace_period_days (the tokens' side: test/e2e/account-tokens.storage.test.ts).
 */
const WRONG = { code: 'INVALID_CREDENTIALS', message: 'The password is incorrect.' };
const minute = 60_000;
const day = 86_400_000;

describe.each(databaseKinds)('deleting your own account on %s', (kind) => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: string;
  let address = 0;
  const from = () => ({ 'x-forwarded-for': `10.3.0.${++address}` });
  const remove = (cookie: string, payload?: unknown, headers: Record<string, string> = from()) =>
    inject(t, 'DELETE', '/api/user', cookie, payload, headers);
  const userRow = (sub: string) => t.database.db('users').where({ sub }).first();

  beforeAll(async () => {
    clock = manualClock(Date.now());
    const base = testConfig();
    t = await createTestApp(
      kind,
      {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
        accountDeletion: { enabled: true, gracePeriodDays: 30 },
      },
      { clock },
    );
    await seedUser(t, { sub: 'root', role: 'admin' });
    for (const sub of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'])
      await seedUser(t, { sub, name: `${sub} person`, locale: 'en' });
    await seedUser(t, { sub: 'cfg', managedBy: 'config' });
    admin = await signIn(t, 'root@example.com');
  });
  afterAll(() => t.destroy());

  it('soft-deletes with the password: 200 { user } with deleted_at and erase_after, the cookie cleared, every session ended', async () => {
    const cookie = await signIn(t, 'alice@example.com');
    const other = await signIn(t, 'alice@example.com');
    const response = await remove(cookie, { password: testPassword }, { ...from(), origin: 'http://localhost:8080' });
    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    const deletedAt = new Date(clock.now()).toISOString();
    expect(user).toMatchObject({
      sub: 'alice',
      name: 'alice person',
      deleted_at: deletedAt,
      erase_after: new Date(clock.now() + 30 * day).toISOString(),
    });
    expect([response.headers['set-cookie']].flat().some((c) => /^session=;/.test(String(c)))).toBe(true);
    expect((await userRow('alice')).deleted_at).not.toBeNull();
    expect(await t.database.db('sessions').where({ sub: 'alice' })).toEqual([]);
    for (const c of [cookie, other]) expect((await inject(t, 'GET', '/api/user', c)).json()).toEqual(UNAUTHORIZED);
    const login = await inject(
      t,
      'POST',
      '/api/auth/login',
      undefined,
      { email: 'alice@example.com', password: testPassword },
      from(),
    );
    expect(login.statusCode).toBe(401);
  });

  it('keeps the soft delete of the admin API: the user is listed only with include_deleted, and its e-mail is free again', async () => {
    const got = await inject(t, 'GET', '/api/admin/users/alice', admin);
    expect(got.json().user.deleted_at).toBe(new Date(Number((await userRow('alice')).deleted_at)).toISOString());
    const listed = async (includeDeleted: boolean) =>
      (await inject(t, 'GET', `/api/admin/users?query=alice&include_deleted=${includeDeleted}`, admin))
        .json()
        .users.map((u: { sub: string }) => u.sub);
    expect(await listed(false)).toEqual([]);
    expect(await listed(true)).toEqual(['alice']);
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password, 400 without one, and deletes nothing', async () => {
    const cookie = await signIn(t, 'bob@example.com');
    const wrong = await remove(cookie, { password: 'not my password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(WRONG);
    for (const missing of [undefined, {}]) {
      const response = await remove(cookie, missing);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ path: 'payload.password', message: '"password" is required' }],
      });
    }
    expect((await userRow('bob')).deleted_at).toBeNull();
    expect((await inject(t, 'GET', '/api/user', cookie)).statusCode).toBe(200);
  });

  it('counts wrong passwords against the login rate limit: 429 after max_attempts, even with the right one', async () => {
    const cookie = await signIn(t, 'carol@example.com');
    for (let i = 0; i < 5; i += 1) expect((await remove(cookie, { password: `wrong ${i}` })).statusCode).toBe(401);
    const blocked = await remove(cookie, { password: testPassword });
    expect(blocked.statusCode).toBe(429);
    expect((await userRow('carol')).deleted_at).toBeNull();
  });

  it.each([
    ['a number', { password: 42 }],
    ['an empty password', { password: '' }],
    ['a password over 1024 characters', { password: 'x'.repeat(1025) }],
    ['a NUL', { password: 'pass\u0000word' }],
    ['an unknown key', { password: testPassword, reason: 'bye' }],
    ['a list', [testPassword]],
  ])('answers 400 for %s, never 500', async (_, payload) => {
    const cookie = await signIn(t, 'bob@example.com');
    const response = await remove(cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('lets a user without a password confirm with a sign-in of the last 10 minutes, and asks an older one to sign in again (401 REAUTHENTICATION_REQUIRED)', async () => {
    const stale = await signIn(t, 'dave@example.com');
    clock.advance(10 * minute + 1000);
    const fresh = await signIn(t, 'erin@example.com');
    await t.database.db('users').whereIn('sub', ['dave', 'erin']).update({ password_hash: null });
    const refused = await remove(stale, { password: 'ignored without a password' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'REAUTHENTICATION_REQUIRED',
      message:
        'Sign in again to confirm: deleting an account without a password needs a sign-in within the last 10 minutes.',
    });
    expect((await userRow('dave')).deleted_at).toBeNull();
    clock.advance(9 * minute);
    const accepted = await remove(fresh);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user).toMatchObject({ sub: 'erin', has_password: false });
  });

  it('answers 403 USER_NOT_EDITABLE for a config-managed user, 401 without a session, 403 ORIGIN_NOT_ALLOWED from another origin', async () => {
    const cfg = await signIn(t, 'cfg@example.com');
    const refused = await remove(cfg, { password: testPassword });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(NOT_EDITABLE);
    expect((await remove('', { password: testPassword })).json()).toEqual(UNAUTHORIZED);
    const bob = await signIn(t, 'bob@example.com');
    const foreign = await remove(bob, { password: testPassword }, { ...from(), origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await userRow('bob')).deleted_at).toBeNull();
  });

  it('answers 403 ACCOUNT_DELETION_DISABLED when account_deletion.enabled is false, before anything else', async () => {
    const config = { ...t.config, accountDeletion: { enabled: false, gracePeriodDays: 30 } };
    const disabled = await createApp(config, { storage: t.database.storage, clock, logger: pino({ level: 'silent' }) });
    try {
      const login = await disabled.server.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'frank@example.com', password: testPassword },
      });
      const cookie = String([login.headers['set-cookie']].flat().find((c) => String(c).startsWith('session='))).split(
        ';',
      )[0];
      for (const payload of [{ password: testPassword }, { password: 'wrong' }, undefined]) {
        const response = await disabled.server.inject({
          method: 'DELETE',
          url: '/api/user',
          headers: { cookie },
          payload,
        });
        expect(response.statusCode).toBe(403);
        expect(JSON.parse(response.payload)).toEqual({
          code: 'ACCOUNT_DELETION_DISABLED',
          message: 'Deleting your own account is not enabled on this service.',
        });
      }
      expect((await userRow('frank')).deleted_at).toBeNull();
    } finally {
      await disabled.stop({ timeoutMs: 1000 });
    }
  });

  describe('erasure by the cleanup job', () => {
    it('keeps a deleted account through the grace period, then erases the row and what references it, keeping the bare sub', async () => {
      const now = clock.now();
      await t.database.db('clients').insert({
        client_id: 'app',
        name: 'App',
        redirect_uris: '[]',
        post_logout_redirect_uris: '[]',
        grant_types: '[]',
        token_endpoint_auth_method: 'none',
        scopes: '[]',
        require_pkce: true,
        skip_consent: false,
        managed_by: 'config',
        created_at: now,
        updated_at: now,
      });
      await t.database.db('consents').insert({ sub: 'bob', client_id: 'app', scopes: 'openid', granted_at: now });
      const cookie = await signIn(t, 'bob@example.com');
      const deleted = await remove(cookie, { password: testPassword });
      expect(deleted.statusCode).toBe(200);
      await seedUser(t, { sub: 'adm-gone', deletedAt: clock.now() });
      await seedUser(t, { sub: 'cfg-gone', managedBy: 'config', deletedAt: clock.now() - 400 * day });

      clock.advance(30 * day - minute);
      expect((await t.app.scheduler.runNow('cleanup')).users_erased).toBe(1);
      expect(await userRow('bob')).toBeDefined();

      clock.advance(2 * minute);
      expect((await t.app.scheduler.runNow('cleanup')).users_erased).toBe(3);
      for (const sub of ['alice', 'bob', 'adm-gone', 'erin']) expect(await userRow(sub)).toBeUndefined();
      expect(await userRow('cfg-gone')).toBeDefined();
      expect(await t.database.db('consents').where({ sub: 'bob' })).toEqual([]);
      const tombstones = await t.database.db('erased_users').orderBy('sub');
      expect(tombstones.map((row) => row.sub)).toEqual(['adm-gone', 'alice', 'bob', 'erin']);
      expect(Object.keys(tombstones[0]).sort()).toEqual(['erased_at', 'sub']);
      expect((await t.app.scheduler.runNow('cleanup')).users_erased).toBe(0);
    });

    it('answers 404 USER_NOT_FOUND for an erased sub in the admin API, lists it nowhere, and lets its e-mail register again', async () => {
      const admin2 = await signIn(t, 'root@example.com');
      expect((await inject(t, 'GET', '/api/admin/users/bob', admin2)).json()).toEqual(NOT_FOUND);
      const all = (await inject(t, 'GET', '/api/admin/users?include_deleted=true&page_size=100', admin2))
        .json()
        .users.map((u: { sub: string }) => u.sub);
      expect(all).not.toContain('bob');
      const again = await inject(t, 'POST', '/api/admin/users', admin2, {
        email: 'bob@example.com',
        password: 'another password',
      });
      expect(again.statusCode).toBe(201);
      expect(again.json().user.sub).not.toBe('bob');
    });

    it('never gives an erased sub to a config user: apply refuses it, naming the path', async () => {
      const config = testConfig({
        database: t.config.database,
        users: [testUser({ sub: 'bob', email: 'new-bob@example.com' })],
      });
      const failure = await applyConfig(t.database.storage, config).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApplyConflictError);
      expect((failure as ApplyConflictError).problems).toEqual([
        'users[0]: sub "bob" belonged to an erased user and is never given again',
      ]);
      expect(await userRow('bob')).toBeUndefined();
    });
  });
});
