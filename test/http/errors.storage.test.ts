import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxPayloadBytes } from '../../src/http/create-server.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';

/** docs/http-api.md, "Errors" (issue 3): one error model, `{ code, message }`, no internals; protocol routes answer RFC 6749. */
const stackLike = /\bat [\w.<>]+ \(|node:internal|\/src\/|\.ts:\d+|\.js:\d+|Error:/;

function expectApiError(
  response: { statusCode: number; payload: string; headers: Record<string, unknown> },
  status: number,
  code?: string,
) {
  expect(response.statusCode).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(response.payload);
  expect(body).toMatchObject({ code: code ?? expect.any(String), message: expect.any(String) });
  expect(Object.keys(body).filter((k) => k !== 'details')).toEqual(['code', 'message']);
  expect(body.message.length).toBeGreaterThan(0);
  expect(response.payload).not.toMatch(stackLike);
  return body;
}

describe.each(databaseKinds)('error model on %s', (kind) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    admin = await signIn(t, 'root@example.com');
  });
  afterAll(() => t.destroy());

  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api/admin/nope'],
    ['POST', '/api/does/not/exist'],
    ['DELETE', '/api/health/x'],
  ])('%s %s (unknown API route) is 404 { code: NOT_FOUND, message }', async (method, url) => {
    const response = await inject(t, method, url, admin);
    expectApiError(response, 404, 'NOT_FOUND');
  });

  it('an unsupported method on a known API path is a 4xx JSON error', async () => {
    const response = await inject(t, 'PUT', '/api/health');
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expectApiError(response, response.statusCode);
  });

  it('malformed JSON is 400 and creates nothing', async () => {
    const response = await inject(t, 'POST', '/api/admin/users', admin, '{"email": "x@example.com", "password": ', {
      'content-type': 'application/json',
    });
    expectApiError(response, 400);
    const login = await inject(t, 'POST', '/api/auth/login', undefined, '{not json', {
      'content-type': 'application/json',
    });
    expectApiError(login, 400);
    const list = await inject(t, 'GET', '/api/admin/users?query=x%40example.com', admin);
    expect(list.json().users).toEqual([]);
  });

  it.each([
    ['text/plain', 'email=x@example.com&password=y'],
    ['application/x-www-form-urlencoded', 'email=x%40example.com&password=y'],
    ['application/xml', '<user/>'],
  ])('a %s body on a JSON route is 415', async (contentType, payload) => {
    const admins = await inject(t, 'POST', '/api/admin/users', admin, payload, { 'content-type': contentType });
    expectApiError(admins, 415);
    const login = await inject(t, 'POST', '/api/auth/login', undefined, payload, { 'content-type': contentType });
    expectApiError(login, 415);
  });

  it('an oversized body is 413', async () => {
    const payload = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(maxPayloadBytes + 10) });
    const response = await inject(t, 'POST', '/api/admin/users', admin, payload, {
      'content-type': 'application/json',
    });
    expectApiError(response, 413);
    const login = await inject(t, 'POST', '/api/auth/login', undefined, payload, {
      'content-type': 'application/json',
    });
    expectApiError(login, 413);
  });

  it('validation failures are 400 VALIDATION_ERROR with details, no internals', async () => {
    const response = await inject(t, 'POST', '/api/admin/users', admin, {
      email: '.bad@example.com',
      password: '',
      extra: 1,
    });
    const body = expectApiError(response, 400, 'VALIDATION_ERROR');
    expect(Array.isArray(body.details)).toBe(true);
    for (const detail of body.details)
      expect(detail).toEqual({ path: expect.any(String), message: expect.any(String) });
  });

  it('over a real port too: unknown route, malformed JSON and 415 answer JSON', async () => {
    await t.app.start();
    try {
      const base = `http://127.0.0.1:${t.app.server.info.port}`;
      const unknown = await fetch(`${base}/api/unknown`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
      const malformed = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      const wrongType = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(wrongType.status).toBe(415);
    } finally {
      await t.app.server.stop({ timeout: 1000 });
    }
  });

  it('a failing database is a 5xx { code, message } with a fixed message, never internals', async () => {
    const broken = await createTestApp(kind);
    try {
      await seedUser(broken, { sub: 'root', role: 'admin', email: 'root@example.com' });
      const cookie = await signIn(broken, 'root@example.com');
      await broken.database.db.destroy();
      for (const [method, url, payload] of [
        ['GET', '/api/admin/users', undefined],
        ['GET', '/api/admin/me', undefined],
        ['POST', '/api/auth/login', { email: 'root@example.com', password: 'x' }],
      ] as const) {
        const response = await inject(broken, method, url, method === 'POST' ? undefined : cookie, payload);
        expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(500);
        const body = expectApiError(response, response.statusCode);
        expect(body.message).not.toMatch(/knex|pool|sqlite|postgres|connection|destroy/i);
      }
      const token = await inject(
        broken,
        'POST',
        '/oauth2/token',
        undefined,
        'grant_type=client_credentials&client_id=a&client_secret=b',
        {
          'content-type': 'application/x-www-form-urlencoded',
        },
      );
      expect(token.statusCode).toBeGreaterThanOrEqual(500);
      expect(JSON.parse(token.payload)).toEqual({ error: 'server_error', error_description: expect.any(String) });
      expect(token.payload).not.toMatch(/knex|pool|sqlite|postgres|connection|destroy/i);
    } finally {
      await broken.destroy();
    }
  });

  describe('protocol routes answer RFC 6749 { error, error_description }', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    function expectOAuthError(
      response: { statusCode: number; payload: string; headers: Record<string, unknown> },
      error?: string,
    ) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
      const body = JSON.parse(response.payload);
      expect(body).toMatchObject({ error: error ?? expect.any(String) });
      expect(body.code).toBeUndefined();
      expect(body.message).toBeUndefined();
      if (body.error_description !== undefined) expect(typeof body.error_description).toBe('string');
      expect(response.payload).not.toMatch(stackLike);
      expect(response.headers['cache-control']).toBe('no-store');
    }

    it('POST /oauth2/token without grant_type', async () => {
      const response = await inject(t, 'POST', '/oauth2/token', undefined, 'client_id=nope', form);
      expectOAuthError(response);
      expect(['invalid_request', 'invalid_client', 'unsupported_grant_type']).toContain(
        JSON.parse(response.payload).error,
      );
    });

    it('POST /oauth2/token with an unknown grant and an unknown client', async () => {
      const response = await inject(
        t,
        'POST',
        '/oauth2/token',
        undefined,
        'grant_type=magic&client_id=nope&client_secret=x',
        form,
      );
      expectOAuthError(response);
    });

    it('POST /oauth2/token with a JSON body', async () => {
      const response = await inject(t, 'POST', '/oauth2/token', undefined, { grant_type: 'client_credentials' });
      expectOAuthError(response);
    });

    it('POST /oauth2/token with a wrong content type is 400 invalid_request', async () => {
      const response = await inject(t, 'POST', '/oauth2/token', undefined, '<xml/>', {
        'content-type': 'application/xml',
      });
      expect(response.statusCode).toBe(400);
      expectOAuthError(response, 'invalid_request');
    });

    // RFC 6749 §5.2: 400 unless specified otherwise, so an oversized body is invalid_request too.
    it('POST /oauth2/token with an oversized body is 400 invalid_request', async () => {
      const response = await inject(
        t,
        'POST',
        '/oauth2/token',
        undefined,
        `grant_type=client_credentials&scope=${'a'.repeat(maxPayloadBytes + 10)}`,
        form,
      );
      expect(response.statusCode).toBe(400);
      expectOAuthError(response, 'invalid_request');
    });

    it('GET /oauth2/unknown is a JSON 404, never a stack trace', async () => {
      const response = await inject(t, 'GET', '/oauth2/unknown');
      expect(response.statusCode).toBe(404);
      expect(response.payload).not.toMatch(stackLike);
    });
  });
});
