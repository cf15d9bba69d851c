import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';
import { NOT_EDITABLE, UNAUTHORIZED, sessionUserFields } from '../support/spec-shapes.js';

/** docs/http-api.md, "Your own account": GET and PATCH /api/user through the real server. */
const profileFields = [
  ...sessionUserFields,
  'recovery_codes_left',
  'name',
  'given_name',
  'family_name',
  'locale',
  'created_at',
].sort();

describe.each(databaseKinds)('the profile API on %s', (kind) => {
  let t: TestApp;
  let alice: string;
  let config: string;
  const origin = 'http://localhost:8080';
  const patch = (cookie: string, payload: unknown, headers: Record<string, string> = {}) =>
    inject(t, 'PATCH', '/api/user', cookie, payload, headers);

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de', 'pt-BR'] },
      server: { ...base.server, host: '127.0.0.1', port: 0 },
    });
    await seedUser(t, { sub: 'alice', email: 'alice@example.com', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5) });
    await seedUser(t, {
      sub: 'cfg',
      email: 'cfg@example.com',
      managedBy: 'config',
      name: 'Config Person',
      locale: 'de',
    });
    alice = await signIn(t, 'alice@example.com');
    config = await signIn(t, 'cfg@example.com');
  });
  afterAll(() => t.destroy());

  it('GET answers 401 UNAUTHORIZED without a session', async () => {
    const response = await inject(t, 'GET', '/api/user');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('GET answers the session user with the profile fields (null when not given) and created_at, not to be cached', async () => {
    const response = await inject(t, 'GET', '/api/user', alice);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { user } = response.json();
    expect(Object.keys(user).sort()).toEqual(profileFields);
    expect(user).toMatchObject({
      sub: 'alice',
      managed_by: 'database',
      name: null,
      given_name: null,
      family_name: null,
      locale: null,
      created_at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('PATCH sets the given fields (trimmed), keeps the absent ones, and stores an offered locale as configured', async () => {
    const response = await patch(alice, { name: '  Ada Lovelace ', given_name: 'Ada', locale: 'PT-br' }, { origin });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: null,
      locale: 'pt-BR',
    });
    const second = await patch(alice, { family_name: 'Lovelace' });
    expect(second.json().user).toMatchObject({
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      locale: 'pt-BR',
    });
    expect((await inject(t, 'GET', '/api/user', alice)).json().user).toMatchObject({
      name: 'Ada Lovelace',
      family_name: 'Lovelace',
    });
  });

  it('PATCH clears a field with null or "" (blank too), and an empty body changes nothing', async () => {
    await patch(alice, { name: 'Someone', given_name: 'Some', family_name: 'One', locale: 'de' });
    const cleared = await patch(alice, { name: null, given_name: '', family_name: '   ', locale: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().user).toMatchObject({ name: null, given_name: null, family_name: null, locale: null });
    const row = await t.database.db('users').where({ sub: 'alice' }).first();
    expect([row.name, row.given_name, row.family_name, row.locale]).toEqual([null, null, null, null]);
    const before = row.updated_at;
    const empty = await patch(alice, {});
    expect(empty.statusCode).toBe(200);
    expect((await t.database.db('users').where({ sub: 'alice' }).first()).updated_at).toBe(before);
  });

  it('PATCH moves updated_at only when a value really changes', async () => {
    await patch(alice, { name: 'Same' });
    const before = (await t.database.db('users').where({ sub: 'alice' }).first()).updated_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await patch(alice, { name: 'Same' })).statusCode).toBe(200);
    expect((await t.database.db('users').where({ sub: 'alice' }).first()).updated_at).toBe(before);
  });

  it('PATCH refuses a locale that is not offered with 400 VALIDATION_ERROR naming the offered ones', async () => {
    const response = await patch(alice, { locale: 'fr' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'The request is invalid.',
      details: [{ path: 'payload.locale', message: '"locale" must be one of en, de, pt-BR' }],
    });
  });

  it.each([
    ['a name over 255 characters', { name: 'x'.repeat(256) }, 'payload.name'],
    ['a locale over 64 characters', { locale: 'x'.repeat(65) }, 'payload.locale'],
    ['a line break in a name', { name: 'Ada\nLovelace' }, 'payload.name'],
    ['a tab in a name', { given_name: 'Ada\tB' }, 'payload.given_name'],
    ['a C1 control in a name', { family_name: 'Love\u0085lace' }, 'payload.family_name'],
    ['a NUL in a name', { name: 'Ada\u0000' }, 'payload.name'],
    ['a lone surrogate in a name', { name: 'Ada\uD800' }, 'payload.name'],
    ['a number', { name: 42 }, 'payload.name'],
    ['a list', { given_name: ['Ada'] }, 'payload.given_name'],
    ['an object', { locale: { tag: 'de' } }, 'payload.locale'],
    ['a boolean', { family_name: true }, 'payload.family_name'],
    ['an unknown key', { nickname: 'ada' }, 'payload.nickname'],
  ])('PATCH refuses %s with 400, never 500', async (_, payload, path) => {
    const response = await patch(alice, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path })] });
    expect(response.payload).not.toContain('Ada\n');
  });

  it('PATCH refuses a missing body and a body that is not a JSON object', async () => {
    expect((await inject(t, 'PATCH', '/api/user', alice)).statusCode).toBe(400);
    for (const payload of ['"a string"', '[1,2]', '12', 'null']) {
      const response = await inject(t, 'PATCH', '/api/user', alice, payload, { 'content-type': 'application/json' });
      expect(response.statusCode).toBe(400);
    }
    const text = await inject(t, 'PATCH', '/api/user', alice, 'name=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(text.statusCode).toBe(415);
  });

  it('PATCH stores any well-formed one-line text up to 255 characters as given, and refuses anything else with 400 (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300, unit: 'binary' }), async (name) => {
        const response = await patch(alice, { name });
        const trimmed = name.trim();
        // Control characters other than tab and line breaks are refused anywhere in a body, before any trim (src/http/find-control-character.ts).
        const acceptable =
          !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(name) &&
          trimmed.length <= 255 &&
          !/[\u0000-\u001F\u007F-\u009F]/.test(trimmed) &&
          trimmed.isWellFormed();
        expect(response.statusCode).toBe(acceptable ? 200 : 400);
        if (!acceptable) return;
        expect(response.json().user.name).toBe(trimmed === '' ? null : trimmed);
        expect((await t.database.db('users').where({ sub: 'alice' }).first()).name).toBe(
          trimmed === '' ? null : trimmed,
        );
      }),
      { numRuns: 40 },
    );
  });

  it('PATCH answers 403 USER_NOT_EDITABLE for a config-managed user, whose profile the file owns; an empty body still answers 200', async () => {
    const refused = await patch(config, { locale: 'en' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(NOT_EDITABLE);
    expect((await patch(config, { name: 'Config Person' })).statusCode).toBe(403);
    const empty = await patch(config, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json().user).toMatchObject({ managed_by: 'config', name: 'Config Person', locale: 'de' });
  });

  it('PATCH follows the Origin rule: another origin gets 403 ORIGIN_NOT_ALLOWED; no session 401', async () => {
    const foreign = await patch(alice, { name: 'Mallory' }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await inject(t, 'GET', '/api/user', alice)).json().user.name).not.toBe('Mallory');
    expect((await patch('', { name: 'x' })).statusCode).toBe(401);
  });
});
