import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { applyConfig } from '../../src/gitops/index.js';
import type { MembershipKey } from '../../src/storage/repositories.js';
import { FORBIDDEN, NOT_EDITABLE, NOT_FOUND, UNAUTHORIZED, adminUserFields } from '../support/spec-shapes.js';

const GROUP_NOT_FOUND = { code: 'GROUP_NOT_FOUND', message: 'Group not found.' };
const CLIENT_NOT_FOUND = { code: 'CLIENT_NOT_FOUND', message: 'Client not found.' };
const MEMBER_NOT_FOUND = { code: 'MEMBER_NOT_FOUND', message: 'The user is not a member of this group.' };
const MEMBER_NOT_REMOVABLE = {
  code: 'MEMBER_NOT_FOUND',
  message:
    'The user is a member of this group only through the config file or an upstream provider, which the admin API cannot change.',
};

/** docs/http-api.md, "Groups and access", row by row, with the exact messages, through the real server. */
describe.each(databaseKinds)('admin groups and access API on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let userCookie: string;

  const call = (method: string, url: string, cookie?: string, payload?: unknown) =>
    inject(t, method, url, cookie, payload);
  const groups = () => t.database.storage.repositories.groups;
  const memberships = async () =>
    (await groups().listMemberships(t.database.tx, ['config', 'database', 'upstream'])).map(
      (m) => `${m.groupId} ${m.sub} ${m.source}${m.provider ? `:${m.provider}` : ''}`,
    );
  const groupEvents = async () =>
    (await t.database.db('events').whereIn('type', ['group.member_added', 'group.member_removed']).orderBy('id')).map(
      (row: Record<string, unknown>) => ({
        type: row.type,
        actor: row.actor,
        subject: row.subject,
        client_address: row.client_address,
        detail: JSON.parse(row.detail as string),
      }),
    );
  const member = (groupId: string, sub: string, source: MembershipKey['source'], provider: string | null = null) => ({
    groupId,
    sub,
    source,
    provider,
  });

  beforeAll(async () => {
    t = await createTestApp(kind, {
      users: [testUser({ sub: 'carol', email: 'carol@example.com' })],
      clients: [
        testClient({ clientId: 'grafana', access: { groups: ['sre', 'dev'], roles: null, secondFactor: null } }),
        testClient({ clientId: 'argo', access: { groups: null, roles: ['admin'], secondFactor: 'required' } }),
        testClient({ clientId: 'wiki', access: null }),
      ],
    });
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    await seedUser(t, { sub: 'dan', email: 'Dan@example.com' });
    await seedUser(t, { sub: 'gone', email: 'gone@example.com', deletedAt: Date.UTC(2026, 0, 2) });
    for (let i = 0; i < 23; i++) await seedUser(t, { sub: `bulk-${String(i).padStart(2, '0')}` });
    const now = Date.now();
    const group = (id: string, name: string, description: string | null) =>
      groups().save(t.database.tx, { id, name, description, upstream: [], createdAt: now, updatedAt: now });
    await group('sre', 'Site reliability', 'On call');
    await group('dev', 'dev', null);
    await group('big', 'Everyone in bulk', null);
    await group('empty', 'Nobody yet', null);
    await groups().addMemberships(
      t.database.tx,
      [
        member('sre', 'carol', 'config'),
        member('sre', 'dan', 'database'),
        member('sre', 'dan', 'upstream', 'corp'),
        member('sre', 'gone', 'database'),
        member('dev', 'dan', 'upstream', 'corp'),
        member('dev', 'dan', 'upstream', 'github'),
        ...Array.from({ length: 23 }, (_, i) => member('big', `bulk-${String(i).padStart(2, '0')}`, 'database')),
      ],
      now,
    );
    admin = await signIn(t, 'root@example.com');
    userCookie = await signIn(t, 'bob@example.com');
  });
  afterAll(() => t.destroy());

  describe('authentication and permission', () => {
    const routes: [string, string][] = [
      ['GET', '/api/admin/groups'],
      ['GET', '/api/admin/groups/sre/members'],
      ['PUT', '/api/admin/groups/sre/members/bob'],
      ['DELETE', '/api/admin/groups/sre/members/dan'],
      ['GET', '/api/admin/users/dan/groups'],
      ['GET', '/api/admin/clients/grafana/access?sub=dan'],
    ];
    it.each(routes)('%s %s without a session is 401 UNAUTHORIZED', async (method, url) => {
      const response = await call(method, url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    });
    it.each(routes)('%s %s as a non-admin is 403 FORBIDDEN and changes nothing', async (method, url) => {
      const before = await memberships();
      const response = await call(method, url, userCookie);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
      expect(await memberships()).toEqual(before);
      expect(await groupEvents()).toEqual([]);
    });
  });

  describe('GET /api/admin/groups', () => {
    it('lists every group by id with its distinct live members from every source', async () => {
      const response = await call('GET', '/api/admin/groups', admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        groups: [
          { id: 'big', name: 'Everyone in bulk', description: null, member_count: 23 },
          { id: 'dev', name: 'dev', description: null, member_count: 1 },
          { id: 'empty', name: 'Nobody yet', description: null, member_count: 0 },
          // carol (config) and dan (database and upstream) once; gone is soft-deleted.
          { id: 'sre', name: 'Site reliability', description: 'On call', member_count: 2 },
        ],
      });
    });
  });

  describe('GET /api/admin/groups/{id}/members', () => {
    it('answers admin users ordered by e-mail with the pagination object (defaults 1 and 20)', async () => {
      const response = await call('GET', '/api/admin/groups/sre/members', admin);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.pagination).toEqual({ page: 1, page_size: 20, total: 2 });
      for (const user of body.users) expect(Object.keys(user).sort()).toEqual(adminUserFields);
      expect(body.users.map((u: { sub: string }) => u.sub)).toEqual(['carol', 'dan']);
      expect(body.users[0]).toMatchObject({ managed_by: 'config', email: 'carol@example.com', deleted_at: null });
    });

    it('pages through a large group', async () => {
      const first = (await call('GET', '/api/admin/groups/big/members', admin)).json();
      expect(first.users).toHaveLength(20);
      const second = (await call('GET', '/api/admin/groups/big/members?page=2&page_size=20', admin)).json();
      expect(second.pagination).toEqual({ page: 2, page_size: 20, total: 23 });
      expect(new Set([...first.users, ...second.users].map((u: { sub: string }) => u.sub)).size).toBe(23);
      expect((await call('GET', '/api/admin/groups/big/members?page_size=1', admin)).json().users).toHaveLength(1);
      expect((await call('GET', '/api/admin/groups/big/members?page_size=100', admin)).json().users).toHaveLength(23);
      expect((await call('GET', '/api/admin/groups/big/members?page=9', admin)).json()).toEqual({
        users: [],
        pagination: { page: 9, page_size: 20, total: 23 },
      });
    });

    it('answers an empty page for a group without members', async () => {
      expect((await call('GET', '/api/admin/groups/empty/members', admin)).json()).toEqual({
        users: [],
        pagination: { page: 1, page_size: 20, total: 0 },
      });
    });

    it('answers 404 GROUP_NOT_FOUND for an unknown group', async () => {
      const response = await call('GET', '/api/admin/groups/ops/members', admin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(GROUP_NOT_FOUND);
    });

    it.each(['page=0', 'page=1.5', 'page=x', 'page_size=0', 'page_size=101', 'page_size=x', 'query=sre'])(
      'rejects %s with 400 VALIDATION_ERROR',
      async (query) => {
        const response = await call('GET', `/api/admin/groups/sre/members?${query}`, admin);
        expect(response.statusCode).toBe(400);
        expect(response.json().code).toBe('VALIDATION_ERROR');
        expect(response.json().details[0].path).toMatch(/^query\./);
      },
    );
  });

  describe.each([
    ['GET', '/members'],
    ['PUT', '/members/bob'],
    ['DELETE', '/members/bob'],
  ])('%s /api/admin/groups/{id}%s with a malformed group id', (method, rest) => {
    it.each(['Sre', 'has%20space', '-sre', 'x'.repeat(65), '%C3%A9t%C3%A9'])(
      '%s is 400 VALIDATION_ERROR',
      async (id) => {
        const before = await memberships();
        const response = await call(method, `/api/admin/groups/${id}${rest}`, admin);
        expect(response.statusCode).toBe(400);
        expect(response.json().code).toBe('VALIDATION_ERROR');
        expect(response.json().details[0].path).toBe('params.id');
        expect(await memberships()).toEqual(before);
      },
    );
  });

  describe('PUT and DELETE /api/admin/groups/{id}/members/{sub}', () => {
    beforeEach(async () => {
      await t.database.db('events').whereIn('type', ['group.member_added', 'group.member_removed']).delete();
    });

    it('PUT adds a database membership (204) and records group.member_added; again changes and records nothing', async () => {
      const response = await call('PUT', '/api/admin/groups/dev/members/bob', admin);
      expect(response.statusCode).toBe(204);
      expect(response.payload).toBe('');
      expect(await memberships()).toContain('dev bob database');
      const events = await groupEvents();
      expect(events).toEqual([
        {
          type: 'group.member_added',
          actor: 'root',
          subject: 'bob',
          client_address: '127.0.0.1',
          detail: { group: 'dev' },
        },
      ]);

      const before = await memberships();
      expect((await call('PUT', '/api/admin/groups/dev/members/bob', admin)).statusCode).toBe(204);
      expect(await memberships()).toEqual(before);
      expect(await groupEvents()).toEqual(events);
      expect((await call('GET', '/api/admin/groups', admin)).json().groups[1]).toMatchObject({
        id: 'dev',
        member_count: 2,
      });
    });

    it('PUT beside an upstream membership adds the database one; DELETE removes only that', async () => {
      expect((await call('PUT', '/api/admin/groups/dev/members/dan', admin)).statusCode).toBe(204);
      expect((await call('DELETE', '/api/admin/groups/dev/members/dan', admin)).statusCode).toBe(204);
      const kept = (await memberships()).filter((m) => m.startsWith('dev dan'));
      expect(kept).toEqual(['dev dan upstream:corp', 'dev dan upstream:github']);
      expect((await groupEvents()).map((e) => e.type)).toEqual(['group.member_added', 'group.member_removed']);
    });

    it('DELETE removes the database membership (204) and records group.member_removed; again is 404 MEMBER_NOT_FOUND', async () => {
      await call('PUT', '/api/admin/groups/empty/members/bob', admin);
      const response = await call('DELETE', '/api/admin/groups/empty/members/bob', admin);
      expect(response.statusCode).toBe(204);
      expect(await memberships()).not.toContain('empty bob database');
      expect((await groupEvents()).at(-1)).toEqual({
        type: 'group.member_removed',
        actor: 'root',
        subject: 'bob',
        client_address: '127.0.0.1',
        detail: { group: 'empty' },
      });
      const again = await call('DELETE', '/api/admin/groups/empty/members/bob', admin);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(MEMBER_NOT_FOUND);
      expect(await groupEvents()).toHaveLength(2);
    });

    it('DELETE of a membership that only an upstream provider asserts is 404 MEMBER_NOT_FOUND and keeps it', async () => {
      const before = await memberships();
      const response = await call('DELETE', '/api/admin/groups/dev/members/dan', admin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(MEMBER_NOT_REMOVABLE);
      expect(await memberships()).toEqual(before);
      expect(await groupEvents()).toEqual([]);
    });

    it.each(['PUT', 'DELETE'])(
      '%s for a config-managed user is 403 USER_NOT_EDITABLE and changes nothing',
      async (method) => {
        const before = await memberships();
        for (const group of ['sre', 'dev']) {
          const response = await call(method, `/api/admin/groups/${group}/members/carol`, admin);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(NOT_EDITABLE);
        }
        expect(await memberships()).toEqual(before);
        expect(await groupEvents()).toEqual([]);
      },
    );

    it.each(['PUT', 'DELETE'])('%s for a soft-deleted user is 403 USER_NOT_EDITABLE', async (method) => {
      const before = await memberships();
      const response = await call(method, '/api/admin/groups/sre/members/gone', admin);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(NOT_EDITABLE);
      expect(await memberships()).toEqual(before);
    });

    it.each(['PUT', 'DELETE'])('%s answers 404 GROUP_NOT_FOUND before USER_NOT_FOUND', async (method) => {
      const unknownGroup = await call(method, '/api/admin/groups/ops/members/nobody', admin);
      expect(unknownGroup.statusCode).toBe(404);
      expect(unknownGroup.json()).toEqual(GROUP_NOT_FOUND);
      const unknownUser = await call(method, '/api/admin/groups/sre/members/nobody', admin);
      expect(unknownUser.statusCode).toBe(404);
      expect(unknownUser.json()).toEqual(NOT_FOUND);
      expect(await groupEvents()).toEqual([]);
    });

    it.each(['PUT', 'DELETE'])('%s with a sub over 255 characters is 400 VALIDATION_ERROR', async (method) => {
      const response = await call(method, `/api/admin/groups/sre/members/${'s'.repeat(256)}`, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0].path).toBe('params.sub');
    });
  });

  describe('GET /api/admin/users/{sub}/groups', () => {
    it('answers one entry per group and source, by group id then source', async () => {
      const response = await call('GET', '/api/admin/users/dan/groups', admin);
      expect(response.statusCode).toBe(200);
      // dan is in dev through two upstream providers: one (dev, upstream) entry.
      expect(response.json()).toEqual({
        groups: [
          { id: 'dev', name: 'dev', source: 'upstream' },
          { id: 'sre', name: 'Site reliability', source: 'database' },
          { id: 'sre', name: 'Site reliability', source: 'upstream' },
        ],
      });
    });

    it('answers config memberships, soft-deleted users, and users in no group', async () => {
      expect((await call('GET', '/api/admin/users/carol/groups', admin)).json()).toEqual({
        groups: [{ id: 'sre', name: 'Site reliability', source: 'config' }],
      });
      expect((await call('GET', '/api/admin/users/gone/groups', admin)).json()).toEqual({
        groups: [{ id: 'sre', name: 'Site reliability', source: 'database' }],
      });
      expect((await call('GET', '/api/admin/users/root/groups', admin)).json()).toEqual({ groups: [] });
    });

    it('answers 404 USER_NOT_FOUND for an unknown sub', async () => {
      const response = await call('GET', '/api/admin/users/nobody/groups', admin);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('GET /api/admin/clients/{client_id}/access', () => {
    const check = async (clientId: string, sub: string) => {
      const response = await call('GET', `/api/admin/clients/${clientId}/access?sub=${sub}`, admin);
      expect(response.statusCode).toBe(200);
      return response.json();
    };

    it('allows a member of one of the groups, from any source, and says which', async () => {
      expect(await check('grafana', 'dan')).toEqual({
        allowed: true,
        reasons: ['member of group dev, group sre'],
      });
      expect(await check('grafana', 'carol')).toEqual({ allowed: true, reasons: ['member of group sre'] });
    });

    it('denies a user in none of the groups, and a soft-deleted member', async () => {
      expect(await check('grafana', 'root')).toEqual({
        allowed: false,
        reasons: ['not a member of any of the groups sre, dev'],
      });
      expect(await check('grafana', 'gone')).toEqual({ allowed: false, reasons: ['the account is deleted'] });
    });

    it('decides by role, and says when the client asks for a second factor', async () => {
      expect(await check('argo', 'root')).toEqual({
        allowed: true,
        reasons: ['role admin is allowed', 'the client asks for a second factor at sign-in'],
      });
      expect(await check('argo', 'bob')).toEqual({ allowed: false, reasons: ['role user is not one of admin'] });
    });

    it('allows every live user of a client without an access rule', async () => {
      expect(await check('wiki', 'bob')).toEqual({
        allowed: true,
        reasons: ['the client has no access rule: every active user'],
      });
    });

    it('answers 404 CLIENT_NOT_FOUND before USER_NOT_FOUND', async () => {
      const noClient = await call('GET', '/api/admin/clients/jenkins/access?sub=nobody', admin);
      expect(noClient.statusCode).toBe(404);
      expect(noClient.json()).toEqual(CLIENT_NOT_FOUND);
      const noUser = await call('GET', '/api/admin/clients/grafana/access?sub=nobody', admin);
      expect(noUser.statusCode).toBe(404);
      expect(noUser.json()).toEqual(NOT_FOUND);
    });

    it.each([
      ['', 'query.sub'],
      ['?sub=', 'query.sub'],
      [`?sub=${'s'.repeat(256)}`, 'query.sub'],
      ['?sub=dan&verbose=1', 'query.verbose'],
    ])('rejects the query %s with 400 VALIDATION_ERROR', async (query, path) => {
      const response = await call('GET', `/api/admin/clients/grafana/access${query}`, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(response.json().details[0].path).toBe(path);
    });

    it('rejects a client_id over 255 characters with 400 VALIDATION_ERROR', async () => {
      const response = await call('GET', `/api/admin/clients/${'c'.repeat(256)}/access?sub=dan`, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0].path).toBe('params.client_id');
    });
  });
});
