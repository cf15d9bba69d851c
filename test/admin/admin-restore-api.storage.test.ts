import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { FORBIDDEN, NOT_EDITABLE, NOT_FOUND } from '../support/spec-shapes.js';

const day = 86_400_000;

/** POST /api/admin/users/{sub}/restore (docs/http-api.md, "Admin API"): within the grace period, and every refusal. */
describe.each(databaseKinds)('POST /api/admin/users/{sub}/restore on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const call = (method: string, url: string, cookie?: string, payload?: unknown) =>
    inject(t, method, url, cookie, payload);

  beforeAll(async () => {
    t = await createTestApp(kind, { accountDeletion: { enabled: true, gracePeriodDays: 30 } });
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    await seedUser(t, { sub: 'recent', email: 'recent@example.com', deletedAt: Date.now() - 29 * day });
    await seedUser(t, { sub: 'old', email: 'old@example.com', deletedAt: Date.now() - 31 * day });
    await seedUser(t, { sub: 'taken', email: 'bob@example.com', deletedAt: Date.now() - day });
    await seedUser(t, { sub: 'cfg', managedBy: 'config', email: 'cfg@example.com', deletedAt: Date.now() - day });
    admin = await signIn(t, 'root@example.com');
  });
  afterAll(() => t.destroy());

  it('restores a user deleted within the grace period, who can sign in again, and records admin.user_restored', async () => {
    const response = await call('POST', '/api/admin/users/recent/restore', admin);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ sub: 'recent', email: 'recent@example.com', deleted_at: null });
    const login = await call('POST', '/api/auth/login', undefined, {
      email: 'recent@example.com',
      password: testPassword,
    });
    expect(login.statusCode).toBe(200);
    const events = await t.database.db('events').where({ type: 'admin.user_restored' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: 'root', subject: 'recent' });
  });

  it('answers 409 USER_NOT_DELETED for a live user', async () => {
    const response = await call('POST', '/api/admin/users/bob/restore', admin);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ code: 'USER_NOT_DELETED', message: 'This user account is not deleted.' });
  });

  it('answers 409 RESTORE_PERIOD_ENDED after the grace period', async () => {
    const response = await call('POST', '/api/admin/users/old/restore', admin);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'RESTORE_PERIOD_ENDED',
      message: 'The grace period of this deleted user account has ended.',
    });
    expect((await knexUserRepository.findBySub(t.database.tx, 'old'))?.deletedAt).not.toBeNull();
  });

  it('answers 409 EMAIL_ALREADY_EXISTS when a live user has the address by now', async () => {
    const response = await call('POST', '/api/admin/users/taken/restore', admin);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('EMAIL_ALREADY_EXISTS');
  });

  it('answers 403 USER_NOT_EDITABLE for a config-managed user, 404 for an unknown one, 403 for a non-admin', async () => {
    const config = await call('POST', '/api/admin/users/cfg/restore', admin);
    expect(config.statusCode).toBe(403);
    expect(config.json()).toEqual(NOT_EDITABLE);
    const unknown = await call('POST', '/api/admin/users/nobody/restore', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
    const bob = await signIn(t, 'bob@example.com');
    const refused = await call('POST', '/api/admin/users/recent/restore', bob);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(FORBIDDEN);
  });
});
