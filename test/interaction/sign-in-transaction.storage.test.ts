import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, testPassword, type TestApp } from '../support/test-app.js';

/**
 * A sign-in's session and its sign_in.succeeded event are written in one
 * transaction (docs/http-api.md "Audit events"): when either cannot be
 * written, neither is.
 */
describe.each(databaseKinds)('the session and the event of a sign-in on %s', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
    await seedUser(t, { sub: 'ada' });
  });
  afterEach(() => t.destroy());

  const login = () =>
    inject(t, 'POST', '/api/auth/login', undefined, { email: 'ada@example.com', password: testPassword });
  const count = async (table: string, where: Record<string, string> = {}) =>
    Number((await t.database.db(table).where(where).count({ n: '*' }))[0].n);

  it('a sign-in writes both', async () => {
    expect((await login()).statusCode).toBe(200);
    expect(await count('sessions')).toBe(1);
    expect(await count('events', { type: 'sign_in.succeeded' })).toBe(1);
  });

  it('an event that cannot be written leaves no session', async () => {
    await t.database.db.schema.renameTable('events', 'events_unwritable');
    expect((await login()).statusCode).toBe(500);
    expect(await count('sessions')).toBe(0);
  });

  it('a session that cannot be written leaves no event', async () => {
    await t.database.db.schema.renameTable('sessions', 'sessions_unwritable');
    expect((await login()).statusCode).toBe(500);
    expect(await count('events', { type: 'sign_in.succeeded' })).toBe(0);
  });
});
