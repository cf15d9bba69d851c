import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient, testTerm, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, signIn, type TestApp } from '../support/test-app.js';

/**
 * The console's read-only pages over HTTP: what each shows of the config and
 * the database, the events' filters as the address carries them, the pages'
 * links, and the empty states of a config that declares nothing.
 */
describe.each(databaseKinds)('the console pages groups, clients, terms and events (%s)', (kind) => {
  let full: TestApp;
  let bare: TestApp;
  let cookie: string;
  let bareCookie: string;

  beforeAll(async () => {
    full = await createTestApp(kind, {
      users: [testUser({ sub: 'root', role: 'admin' }), testUser({ sub: 'alice' })],
      groups: [
        {
          id: 'staff',
          name: 'Staff',
          description: null,
          upstream: [{ provider: 'corp', claim: 'department', value: 'ops' }],
          members: ['alice'],
        },
      ],
      clients: [testClient({ clientId: 'admin-app', access: { groups: null, roles: ['admin'], secondFactor: null } })],
      terms: [testTerm({ required: false })],
    });
    bare = await createTestApp(kind, { users: [testUser({ sub: 'root', role: 'admin' })] });
    for (const app of [full, bare]) await applyConfig(app.database.storage, app.config);
    cookie = await signIn(full, 'root@example.com');
    bareCookie = await signIn(bare, 'root@example.com');
  });
  afterAll(async () => {
    await full?.destroy();
    await bare?.destroy();
  });

  it('sends a signed-out person to sign in, keeping the filters', async () => {
    const response = await inject(full, 'GET', '/admin/events?type=sign_in.succeeded');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?return_to=%2Fadmin%2Fevents%3Ftype%3Dsign_in.succeeded');
  });

  it('shows a group with a claim rule, its members and a link back a page', async () => {
    const response = await inject(full, 'GET', '/admin/groups/staff?page=2', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.payload).toContain('corp: claim department = ops');
    expect(response.payload).toContain('Page 2 of 1');
    expect(response.payload).toContain('rel="prev" href="/admin/groups/staff"');
    const first = await inject(full, 'GET', '/admin/groups/staff?page=x', cookie);
    expect(first.payload).toContain('href="/admin/users/alice"');
    expect(first.payload).toContain('1 member');
  });

  it('shows a client limited to a role', async () => {
    const response = await inject(full, 'GET', '/admin/clients/admin-app', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.payload).toMatch(/<dt>Roles<\/dt><dd>Admin<\/dd>/);
    expect(response.payload).toMatch(/<dt>Second factor required<\/dt><dd>No<\/dd>/);
    expect(response.payload).toContain('Confidential');
    expect(response.payload).not.toContain('secret-of-admin-app');
  });

  it('shows an optional term', async () => {
    const response = await inject(full, 'GET', '/admin/terms', cookie);
    expect(response.payload).toMatch(/data-label="Required">No</);
  });

  it('reads the time filters as UTC minutes and ignores what is not one', async () => {
    const inRange = await inject(full, 'GET', '/admin/events?since=2000-01-01T00:00&type=sign_in.succeeded', cookie);
    expect(inRange.payload).toContain('value="2000-01-01T00:00"');
    expect(inRange.payload).toContain('<option value="sign_in.succeeded" selected>');
    expect(inRange.payload).toContain('/ui/console-events.js');
    expect(inRange.payload).toContain('<p id="events-none" hidden>');
    const before = await inject(full, 'GET', '/admin/events?until=2000-01-01T00:00', cookie);
    expect(before.payload).toContain('<p id="events-none">No event matches.');
    // No follow mode with an upper bound: no new event can match.
    expect(before.payload).not.toContain('/ui/console-events.js');
    const ignored = await inject(full, 'GET', '/admin/events?since=2026-13-45T99:99&until=yesterday&type=nope', cookie);
    expect(ignored.payload).toContain('name="since" type="datetime-local" value=""');
    expect(ignored.payload).toContain('name="until" type="datetime-local" value=""');
    expect(ignored.payload).not.toContain('selected>');
    expect(ignored.payload).toContain('<p id="events-none" hidden>');
  });

  it('links a later page of events back, with the filters, and has no follow mode there', async () => {
    const response = await inject(full, 'GET', '/admin/events?actor=root&subject=root&page=2', cookie);
    expect(response.payload).toContain('rel="prev" href="/admin/events?actor=root&#38;subject=root"');
    expect(response.payload).not.toContain('/ui/console-events.js');
  });

  it('says so when nothing is declared', async () => {
    const pages = {
      '/admin/groups': 'No group is declared.',
      '/admin/clients': 'No client is declared.',
      '/admin/terms': 'No terms are declared.',
    };
    for (const [path, sentence] of Object.entries(pages)) {
      const response = await inject(bare, 'GET', path, bareCookie);
      expect(response.statusCode).toBe(200);
      expect(response.payload).toContain(sentence);
    }
  });
});
