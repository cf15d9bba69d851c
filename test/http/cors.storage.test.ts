import type { Request, ResponseToolkit } from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { createCors } from '../../src/http/create-cors.js';
import { route } from '../../src/http/route-definition.js';
import { userinfoGetRoute } from '../../src/http/routes/userinfo-routes.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';

/**
 * Issue 10, CORS (src/http/create-cors.ts, the cors column of
 * src/http/routes.ts): which route lets which origin read its answers, and
 * the preflight. Browser behaviour end to end: test/e2e/cross-origin-app.browser.test.ts.
 */
const spa = 'https://spa.example.com';
const web = 'https://web.example.com';
const stranger = 'https://evil.example';

describe('CORS', () => {
  let t: TestApp;
  let now = Date.now();
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await createTestApp(
      'sqlite',
      {
        users: [testUser({ sub: 'alice' })],
        clients: [
          testClient({ clientId: 'web', redirectUris: [`${web}/callback`] }),
          testClient({
            clientId: 'spa',
            clientSecret: null,
            tokenEndpointAuthMethod: 'none',
            redirectUris: [`${spa}/callback`, `${spa}/silent`],
          }),
          // A native app's custom scheme has the opaque origin "null", which must never be allowed.
          testClient({
            clientId: 'native',
            clientSecret: null,
            tokenEndpointAuthMethod: 'none',
            redirectUris: ['com.example.app:/callback'],
          }),
        ],
      },
      { clock },
    );
    await applyConfig(t.database.storage, t.config);
  });
  afterAll(() => t.destroy());

  const call = (
    method: string,
    url: string,
    origin: string | undefined,
    headers: Record<string, string> = {},
    payload?: string,
  ) => inject(t, method, url, undefined, payload, { ...(origin ? { origin } : {}), ...headers });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  function expectNoCors(response: Awaited<ReturnType<typeof call>>) {
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  }

  describe('public documents: any origin, no credentials', () => {
    it.each(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth2/jwks'])(
      'GET %s answers * to any origin, and without one',
      async (path) => {
        for (const origin of [stranger, spa, undefined]) {
          const response = await call('GET', path, origin);
          expect(response.statusCode).toBe(200);
          expect(response.headers['access-control-allow-origin']).toBe('*');
          expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        }
      },
    );

    it('answers the preflight of discovery with *', async () => {
      const response = await call('OPTIONS', '/.well-known/openid-configuration', stranger, {
        'access-control-request-method': 'GET',
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET');
    });
  });

  describe('the token endpoint and revocation: origins of public clients', () => {
    const token = (origin: string | undefined) =>
      call(
        'POST',
        '/oauth2/token',
        origin,
        form,
        'grant_type=authorization_code&client_id=spa&code=nope&redirect_uri=https%3A%2F%2Fspa.example.com%2Fcallback&code_verifier=' +
          'a'.repeat(43),
      );

    it("echoes a public client's origin, also on an error, with Vary: Origin and the challenge header exposed", async () => {
      const response = await token(spa);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
      expect(response.headers['access-control-allow-origin']).toBe(spa);
      expect(response.headers['access-control-expose-headers']).toBe('WWW-Authenticate');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers.vary).toContain('origin');
    });

    it('does not allow a confidential client\'s origin, an unknown one or "null"; Vary: Origin even so', async () => {
      for (const origin of [web, stranger, 'null', `${spa}:8443`]) {
        const response = await token(origin);
        expect(response.statusCode).toBe(400);
        expectNoCors(response);
        expect(response.headers.vary).toContain('origin');
      }
      expect((await token(undefined)).headers.vary).toContain('origin');
    });

    it('revocation follows the same rule', async () => {
      const revoke = (origin: string) => call('POST', '/oauth2/revoke', origin, form, 'token=unknown&client_id=spa');
      const allowed = await revoke(spa);
      expect(allowed.statusCode).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe(spa);
      expectNoCors(await revoke(web));
    });

    it('the PAR endpoint follows the same rule', async () => {
      const push = (origin: string) => call('POST', '/oauth2/par', origin, form, 'client_id=spa&response_type=code');
      const allowed = await push(spa);
      expect(allowed.statusCode).toBe(400);
      expect(allowed.headers['access-control-allow-origin']).toBe(spa);
      expectNoCors(await push(web));
    });

    it('answers the preflight: 204 with the origin, methods, headers and max-age, never credentials', async () => {
      const response = await call('OPTIONS', '/oauth2/token', spa, {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': spa,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Authorization, Content-Type',
        'access-control-max-age': '7200',
      });
      expect(response.headers.vary).toContain('origin');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers the preflight of other origins without CORS headers', async () => {
      for (const origin of [web, stranger]) {
        const response = await call('OPTIONS', '/oauth2/token', origin, { 'access-control-request-method': 'POST' });
        expect(response.statusCode).toBe(204);
        expectNoCors(response);
        expect(response.headers['access-control-allow-methods']).toBeUndefined();
      }
      // A method the path does not allow cross-origin.
      expectNoCors(await call('OPTIONS', '/oauth2/token', spa, { 'access-control-request-method': 'GET' }));
    });
  });

  describe('userinfo: origins of every client', () => {
    it("echoes a public or confidential client's origin on the 401, whose challenge the app may read", async () => {
      for (const origin of [spa, web]) {
        const response = await call('GET', '/oauth2/userinfo', origin, { authorization: 'Bearer not-a-token' });
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toContain('invalid_token');
        expect(response.headers['access-control-allow-origin']).toBe(origin);
        expect(response.headers['access-control-expose-headers']).toBe('WWW-Authenticate');
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      }
      expectNoCors(await call('POST', '/oauth2/userinfo', stranger, form, 'access_token=x'));
    });

    it('answers the preflight for GET and POST with the Authorization header allowed', async () => {
      const response = await call('OPTIONS', '/oauth2/userinfo', web, {
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(web);
      expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
      expect(response.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
    });
  });

  describe('same-origin only', () => {
    it.each([
      ['POST', '/oauth2/introspect', 'token=x&client_id=spa'],
      ['GET', '/oauth2/authorize?client_id=spa', undefined],
      ['GET', '/oauth2/logout', undefined],
      ['GET', '/api/health', undefined],
      ['GET', '/api/auth/session', undefined],
      ['POST', '/api/auth/login', '{"email":"alice@example.com","password":"x"}'],
      ['GET', '/login', undefined],
    ])('%s %s sends no CORS headers to a registered origin', async (method, url, payload) => {
      const headers = payload?.startsWith('{') ? { 'content-type': 'application/json' } : payload ? form : {};
      expectNoCors(await call(method, url, spa, headers, payload));
    });

    it.each(['/oauth2/introspect', '/oauth2/authorize', '/oauth2/logout', '/api/auth/login', '/api/consent'])(
      'OPTIONS %s is not answered',
      async (path) => {
        const response = await call('OPTIONS', path, spa, { 'access-control-request-method': 'POST' });
        expect(response.statusCode).toBe(404);
        expectNoCors(response);
      },
    );

    it('OPTIONS without Access-Control-Request-Method is no preflight', async () => {
      const response = await call('OPTIONS', '/oauth2/token', spa);
      expect(response.statusCode).toBe(404);
      expectNoCors(response);
    });
  });

  it("follows client changes from apply within the directory's staleness bound", async () => {
    const newcomer = 'http://127.0.0.1:5173';
    const userinfoFrom = (origin: string) => call('GET', '/oauth2/userinfo', origin, { authorization: 'Bearer x' });
    expectNoCors(await userinfoFrom(newcomer));

    const moved = testClient({ clientId: 'web', redirectUris: [`${newcomer}/callback`] });
    await applyConfig(t.database.storage, {
      ...t.config,
      clients: [moved, ...t.config.clients.filter((c) => c.clientId !== 'web')],
    });
    now += 1000;
    expect((await userinfoFrom(newcomer)).headers['access-control-allow-origin']).toBe(newcomer);
    expectNoCors(await userinfoFrom(web));
  });
});

describe('createCors', () => {
  const row = route('GET', '/oauth2/userinfo', 'none', userinfoGetRoute, { cors: 'client-origins' });
  const toolkit = { continue: Symbol('continue') } as unknown as ResponseToolkit;

  it('leaves the answer without CORS headers when the client directory cannot be read', async () => {
    const cors = createCors([row], () => Promise.reject(new Error('the database is down')));
    const headers: Record<string, string> = {};
    const response = {
      vary: (name: string) => (headers.vary = name),
      header: (name: string, value: string) => (headers[name] = value),
    };
    const request = { response, headers: { origin: 'https://web.example.com' } } as unknown as Request;
    expect(await cors.responseHeaders('client-origins').call(null, request, toolkit)).toBe(toolkit.continue);
    expect(headers).toEqual({ vary: 'origin' });
  });

  it('refuses a CORS row with a path parameter, which its preflight could not find', () => {
    expect(() =>
      createCors([{ ...row, path: '/oauth2/{x}' }], async () => ({ all: new Set(), publicClients: new Set() })),
    ).toThrow('GET /oauth2/{x}: a CORS row needs a literal path');
  });
});
