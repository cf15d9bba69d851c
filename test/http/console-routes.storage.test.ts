import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';
import { createAdminOverview } from '../../src/admin/admin-overview.js';
import { recordConfigDrift } from '../../src/gitops/config-drift.js';
import { createPageContext, renderConsoleOverviewPage } from '../../src/web/index.js';

const day = 86_400_000;

/**
 * The console's routes through the real server, for what a browser does not
 * easily reach: a post without a session, hand-edited addresses, unknown
 * actions, a bad e-mail, a deleted user past the grace period, and the
 * Overview's drift slot.
 */
describe.each(databaseKinds)('the console routes on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let csrf: string;

  const form = (fields: Record<string, string>) => ({
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const post = (url: string, fields: Record<string, string>, cookie = admin) =>
    t.app.server.inject({
      method: 'POST',
      url,
      ...form(fields),
      headers: { ...form(fields).headers, ...(cookie ? { cookie } : {}) },
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { accountDeletion: { enabled: true, gracePeriodDays: 30 } });
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    await seedUser(t, { sub: 'old', email: 'old@example.com', deletedAt: Date.now() - 40 * day });
    admin = await signIn(t, 'root@example.com');
    const page = await inject(t, 'GET', '/admin/users/bob', admin);
    csrf = /name="csrf" value="([^"]+)"/.exec(page.payload)?.[1] ?? '';
    expect(csrf).not.toBe('');
  });
  afterAll(() => t.destroy());

  it('sends a post without a session to the sign-in page', async () => {
    const response = await post('/admin/users/bob/unlock', { csrf }, '');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login');
  });

  it('reads a hand-edited list address as the defaults', async () => {
    const response = await inject(t, 'GET', '/admin/users?page=-3&managed_by=nobody&role=root', admin);
    expect(response.statusCode).toBe(200);
    expect(response.payload).toContain('Page 1 of 1');
  });

  it('sends an unknown confirmation, or one for a membership an admin did not add, back to the user', async () => {
    for (const query of ['action=explode', 'action=group-remove&group=dev']) {
      const response = await inject(t, 'GET', `/admin/users/bob/confirm?${query}`, admin);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/admin/users/bob');
    }
    const unknownUser = await inject(t, 'GET', '/admin/users/nobody/confirm?action=delete', admin);
    expect(unknownUser.statusCode).toBe(404);
  });

  it('answers an unknown action 404 and a bad e-mail 400, on the user page', async () => {
    const unknown = await post('/admin/users/bob/explode', { csrf });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.payload).toContain('bob@example.com');
    const badEmail = await post('/admin/users/bob/edit', { csrf, email: 'not an address' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.payload).toContain('data-code="INVALID_EMAIL"');
    const missing = await post('/admin/users/nobody/unlock', { csrf });
    expect(missing.statusCode).toBe(404);
    expect(missing.payload).toContain('data-code="USER_NOT_FOUND"');
  });

  it('shows a deleted user past the grace period without Restore, and refuses its restore', async () => {
    const page = await inject(t, 'GET', '/admin/users/old', admin);
    expect(page.payload).not.toContain('/admin/users/old/restore');
    const refused = await post('/admin/users/old/restore', { csrf });
    expect(refused.statusCode).toBe(409);
    expect(refused.payload).toContain('data-code="RESTORE_PERIOD_ENDED"');
  });

  it('answers a setup form with a bad e-mail on the form, and one whose link is unknown 404', async () => {
    const badEmail = await post('/setup', { token: 'x', email: 'nope', password: 'a long enough password' }, '');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.payload).toContain('data-code="INVALID_EMAIL"');
    const unknown = await post(
      '/setup',
      { token: 'x', email: 'a@example.com', password: 'a long enough password' },
      '',
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('sends the first admin on to the second factor when auth.second_factor covers admins', async () => {
    const strict = await createTestApp(kind, { auth: { ...t.config.auth, secondFactor: 'required_for_admins' } });
    try {
      const token = await strict.app.deps.admin.firstAdmin.issue();
      const response = await strict.app.server.inject({
        method: 'POST',
        url: '/setup',
        payload: new URLSearchParams({
          token: token ?? '',
          email: 'first@example.com',
          password: 'a long enough password',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/login/second-factor?return_to=%2Fadmin');
      const cookie = String(response.headers['set-cookie']).split(';')[0];
      // Pending: the console is not open yet.
      const opened = await strict.app.server.inject({ method: 'GET', url: '/admin', headers: { cookie } });
      expect(opened.statusCode).toBe(302);
    } finally {
      await strict.destroy();
    }
  });

  it('shows on the Overview what the last drift check recorded', async () => {
    const storage = t.database.storage;
    const driftPanel = async () => {
      const page = await inject(t, 'GET', '/admin', admin);
      expect(page.statusCode).toBe(200);
      return /id="overview-drift"[\s\S]*?<p>([^<]*)<\/p>/.exec(page.payload)?.[1];
    };
    expect(await driftPanel()).toBe('Not checked yet: the check runs every 5 minutes.');
    await recordConfigDrift(storage.db, storage.repositories.settings, 3, Date.now());
    expect(await driftPanel()).toMatch(/^The database differs from the config file: 3 changes to apply .*Checked /);
    await recordConfigDrift(storage.db, storage.repositories.settings, -1, Date.now());
    expect(await driftPanel()).toMatch(/^The config file collides with the database/);
    await recordConfigDrift(storage.db, storage.repositories.settings, 0, Date.now());
    expect(await driftPanel()).toMatch(/^The database matches the config file\. Checked /);
    // Built without a drift service (as by a test), the Overview has no panel.
    const caller = { ...(await storage.repositories.users.findBySub(storage.db, 'root'))! };
    const bare = createAdminOverview({
      db: storage.db,
      events: storage.repositories.events,
      sessions: storage.repositories.sessions,
      clock: { now: () => Date.now() },
    });
    const context = createPageContext(t.config, { path: '/admin', query: {} });
    const request = { adminSub: 'root', adminEmail: 'root@example.com', csrf: 'token' };
    expect(renderConsoleOverviewPage(context, request, await bare.overview(caller))).not.toContain('overview-drift');
  });
});
