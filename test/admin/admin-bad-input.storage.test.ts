import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';

/** Issue 3, Bad input: every bad request answers 4xx with { code, message } and changes nothing. */
describe.each(databaseKinds)('admin API bad input on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const call = (method: string, url: string, payload?: unknown, headers?: Record<string, string>) =>
    inject(t, method, url, admin, payload, headers);
  const snapshot = async () => JSON.stringify(await t.database.db('users').orderBy('sub'));

  beforeAll(async () => {
    t = await createTestApp(kind);
    await seedUser(t, { sub: 'root', role: 'admin' });
    await seedUser(t, { sub: 'bob' });
    admin = await signIn(t, 'root@example.com');
  });
  afterAll(() => t.destroy());

  const expectError = (
    response: { statusCode: number; json(): Record<string, unknown> },
    status: number,
    code: string,
  ) => {
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.code).toBe(code);
    expect(typeof body.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(js|ts):\d+/);
  };

  it('malformed JSON is 400 MALFORMED_JSON', async () => {
    const before = await snapshot();
    for (const [method, url] of [
      ['POST', '/api/admin/users'],
      ['PATCH', '/api/admin/users/bob'],
    ]) {
      expectError(
        await call(method, url, '{"email": "x@example.com", ', { 'content-type': 'application/json' }),
        400,
        'MALFORMED_JSON',
      );
    }
    expect(await snapshot()).toBe(before);
  });

  it('a wrong content type is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      expectError(
        await call('POST', '/api/admin/users', 'email=x%40example.com&password=pw', { 'content-type': type }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
  });

  it('an oversized body is 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(100_000) });
    expectError(
      await call('POST', '/api/admin/users', big, { 'content-type': 'application/json' }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('unknown fields are 400 VALIDATION_ERROR naming the field', async () => {
    const create = await call('POST', '/api/admin/users', {
      email: 'u@example.com',
      password: 'pw',
      managed_by: 'config',
    });
    expectError(create, 400, 'VALIDATION_ERROR');
    expect(create.json().details).toEqual([{ path: 'payload.managed_by', message: '"managed_by" is not allowed' }]);
    expectError(await call('PATCH', '/api/admin/users/bob', { sub: 'other' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', '/api/admin/users/bob', { deleted_at: null }), 400, 'VALIDATION_ERROR');
  });

  it.each([
    '.lead@example.com',
    'two..dots@example.com',
    'trailing.@example.com',
    'no-at-sign',
    'a@b',
    '',
    'a@exa..mple.com',
    'x@-example.com',
  ])('rejects the e-mail %j on create and update', async (email) => {
    const before = await snapshot();
    expectError(await call('POST', '/api/admin/users', { email, password: 'pw' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', '/api/admin/users/bob', { email }), 400, 'VALIDATION_ERROR');
    expect(await snapshot()).toBe(before);
  });

  it('rejects passwords of 0 and 257 characters, accepts 1 and 256', async () => {
    expectError(
      await call('POST', '/api/admin/users', { email: 'p0@example.com', password: '' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', '/api/admin/users', { email: 'p257@example.com', password: 'x'.repeat(257) }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await call('POST', '/api/admin/users', { email: 'p1@example.com', password: 'x' })).statusCode).toBe(201);
    expect(
      (await call('POST', '/api/admin/users', { email: 'p256@example.com', password: 'x'.repeat(256) })).statusCode,
    ).toBe(201);
  });

  it('rejects wrong types and values', async () => {
    for (const body of [
      { email: 'a@example.com', password: 12345 },
      { email: ['a@example.com'], password: 'pw' },
      { email: 'a@example.com', password: 'pw', role: 'root' },
      { email: 'a@example.com', password: 'pw', email_verified: 'yes' },
      { password: 'pw' },
      [],
      'null',
    ]) {
      expectError(
        await call('POST', '/api/admin/users', body, { 'content-type': 'application/json' }),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('rejects a sub longer than 255 characters on every sub route', async () => {
    const sub = 's'.repeat(256);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      expectError(
        await call(method, `/api/admin/users/${sub}`, method === 'PATCH' ? {} : undefined),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('an unknown API path is 404 NOT_FOUND in JSON', async () => {
    expectError(await call('GET', '/api/admin/nothing-here'), 404, 'NOT_FOUND');
    expectError(await call('PUT', '/api/admin/users/bob', {}), 404, 'NOT_FOUND');
  });

  describe('property: random bodies and query strings never cause a 5xx', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const anyBody = fc.oneof(
      json,
      fc.record(
        {
          email: fc.oneof(fc.emailAddress(), fc.string(), json),
          password: fc.oneof(fc.string({ maxLength: 300 }), json),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          email: fc.oneof(fc.emailAddress(), fc.string()),
          role: fc.oneof(fc.constantFrom('user', 'admin'), fc.string()),
          email_verified: json,
        },
        { requiredKeys: [] },
      ),
    );
    const queryValue = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer().map(String),
      fc.constantFrom('true', 'false', '1e9', '-0', 'NaN', '%', "'--", '9007199254740993'),
    );
    const queryString = fc
      .dictionary(
        fc.constantFrom('query', 'page', 'page_size', 'include_deleted', 'managed_by', 'role', 'x'),
        queryValue,
        { maxKeys: 4 },
      )
      .map((params) => new URLSearchParams(params).toString());
    const sub = fc.oneof(fc.string({ minLength: 1, maxLength: 300 }), fc.constantFrom('bob', 'root', 'nobody'));

    const expectSafe = (response: { statusCode: number; json(): Record<string, unknown> }) => {
      expect(response.statusCode).toBeLessThan(500);
      if (response.statusCode >= 400) {
        const body = response.json();
        expect(typeof body.code).toBe('string');
        expect(typeof body.message).toBe('string');
      }
    };

    it('GET /api/admin/users with random query strings', async () => {
      await fc.assert(
        fc.asyncProperty(queryString, async (qs) => expectSafe(await call('GET', `/api/admin/users?${qs}`))),
        { numRuns: 150 },
      );
    });

    it('POST /api/admin/users and PATCH /api/admin/users/{sub} with random bodies', async () => {
      await fc.assert(
        fc.asyncProperty(anyBody, sub, async (body, target) => {
          const payload = JSON.stringify(body);
          expectSafe(await call('POST', '/api/admin/users', payload, { 'content-type': 'application/json' }));
          expectSafe(
            await call('PATCH', `/api/admin/users/${encodeURIComponent(target)}`, payload, {
              'content-type': 'application/json',
            }),
          );
        }),
        { numRuns: 60 },
      );
    });

    it('GET, DELETE /api/admin/users/{sub} and GET /api/admin/me with random subs and raw bodies', async () => {
      await fc.assert(
        fc.asyncProperty(sub, fc.string({ maxLength: 200 }), async (target, raw) => {
          const path = `/api/admin/users/${encodeURIComponent(target)}`;
          expectSafe(await call('GET', `${path}?${new URLSearchParams({ x: raw })}`));
          expectSafe(await call('DELETE', path, raw, { 'content-type': 'application/json' }));
          expectSafe(await call('GET', '/api/admin/me', raw, { 'content-type': 'application/json' }));
        }),
        { numRuns: 60 },
      );
    });
  });
});
