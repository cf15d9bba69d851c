import fc from 'fast-check';
import type Joi from 'joi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { documentedRoutes } from '../../src/http/routes.js';
import type { RouteDefinition } from '../../src/http/route-definition.js';
import { testClient, testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';

/**
 * Issue #10: PostgreSQL answered 500 to a NUL byte in a string it was asked
 * to store (SQLite stores it). Strings with control characters are refused
 * at the edge with 400, on every route and both databases
 * (docs/http-api.md "Control characters").
 */
const refused = [...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => ![0x09, 0x0a, 0x0d].includes(c)), 0x7f].map(
  (c) => String.fromCharCode(c),
);
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A valid authorization request of the skip-consent client: with a session it reaches code issuance, which stores the nonce. */
const authorizeParams = {
  client_id: 'app',
  redirect_uri: 'https://app.example.com/callback',
  response_type: 'code',
  scope: 'openid email',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 'st',
  nonce: 'nn',
};

type Response = Awaited<ReturnType<typeof inject>>;

const invalid = (path: string, name: string) => ({
  code: 'VALIDATION_ERROR',
  message: 'The request is invalid.',
  details: [{ path, message: `"${name}" must not contain control characters` }],
});

function expectRefused(response: Response, route: Pick<RouteDefinition, 'protocol'>) {
  expect(response.statusCode).toBe(400);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = response.json();
  if (route.protocol) {
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('invalid_request');
  } else {
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
  }
}

/** The keys a route's joi object schema names (what the route expects), or none. */
function keysOf(schema: Joi.Schema | undefined): string[] {
  const description = schema?.describe() as { keys?: Record<string, unknown> } | undefined;
  return Object.keys(description?.keys ?? {});
}

const paramNames = (path: string) => [...path.matchAll(/\{(\w+)\*?\}/g)].map((m) => m[1]);
const takesBody = (route: RouteDefinition) => route.method !== 'GET';
const isForm = (route: RouteDefinition) =>
  (route.hapiOptions?.payload as { allow?: string } | undefined)?.allow === 'application/x-www-form-urlencoded';

describe.each(databaseKinds)('control characters on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const none = { protocol: false };
  const protocol = { protocol: true };

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clients: [testClient({ clientId: 'app', skipConsent: true })],
      // The forward-auth routes refuse any peer that is not a trusted proxy before reading anything.
      server: { ...testConfig().server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
    });
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    admin = await signIn(t, 'root@example.com');
  });
  afterAll(() => t.destroy());

  describe('the cases of the issue answer 400 (PostgreSQL answered 500)', () => {
    it('POST /api/auth/login with a NUL in the e-mail', async () => {
      const response = await inject(t, 'POST', '/api/auth/login', undefined, {
        email: 'bob\u0000@example.com',
        password: 'x',
      });
      expectRefused(response, none);
      expect(response.json()).toEqual(invalid('payload.email', 'email'));
    });

    it.each(['client_id', 'nonce'])('GET and POST /oauth2/authorize with a NUL in %s, signed in', async (name) => {
      const params = new URLSearchParams({ ...authorizeParams, [name]: `x\u0000y` }).toString();
      const get = await inject(t, 'GET', `/oauth2/authorize?${params}`, admin);
      const post = await inject(t, 'POST', '/oauth2/authorize', admin, params, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      for (const response of [get, post]) {
        expectRefused(response, protocol);
        expect(response.json()).toEqual({
          error: 'invalid_request',
          error_description: `"${name}" must not contain control characters`,
        });
      }
    });

    it.each(['GET', 'PATCH', 'DELETE'])('%s /api/admin/users/{sub} with a NUL in sub', async (method) => {
      const response = await inject(
        t,
        method,
        '/api/admin/users/b%00ob',
        admin,
        method === 'PATCH' ? { role: 'admin' } : undefined,
      );
      expectRefused(response, none);
      expect(response.json()).toEqual(invalid('params.sub', 'sub'));
    });

    it('GET /api/admin/users with a NUL in query', async () => {
      const response = await inject(t, 'GET', '/api/admin/users?query=b%00', admin);
      expectRefused(response, none);
      expect(response.json()).toEqual(invalid('query.query', 'query'));
    });

    it('POST /api/admin/users with a NUL in the password, and nothing is created', async () => {
      const response = await inject(t, 'POST', '/api/admin/users', admin, {
        email: 'new@example.com',
        password: 'pass\u0000word',
      });
      expect(response.json()).toEqual(invalid('payload.password', 'password'));
      expect(await t.database.db('users').where({ email: 'new@example.com' })).toEqual([]);
    });

    it('a key with a control character is refused without being echoed', async () => {
      const response = await inject(t, 'GET', '/oauth2/authorize?x%01=1', admin);
      expectRefused(response, protocol);
      expect(response.json().error_description).toBe('the keys of "query" must not contain control characters');
    });
  });

  it('a control character that joi would trim away (a vertical tab ending an e-mail) is refused, not trimmed', async () => {
    const response = await inject(t, 'POST', '/api/auth/login', undefined, {
      email: 'bob@example.com\u000b',
      password: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalid('payload.email', 'email'));
  });

  it('TAB, LF and CR pass: a password holding them is checked, not refused', async () => {
    const response = await inject(t, 'POST', '/api/auth/login', undefined, {
      email: 'bob@example.com',
      password: `${testPassword}\t\n\r`,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_CREDENTIALS');
  });

  /**
   * Every documented route, with strings that hold a control character in
   * its path params, query or body (the fields it expects and others), with
   * the admin cookie and without: the answer is 400 in the route's error
   * shape, or 401 where the route needs a session none was sent for (409
   * where it needs a pending sign-in and got a signed-in session); never a
   * 5xx and never the handler's answer.
   */
  describe('property: every documented route refuses them', () => {
    const clean = fc.string({ maxLength: 10 }).filter((s) => !refused.some((c) => s.includes(c)));
    const tainted = fc.tuple(clean, fc.constantFrom(...refused), clean).map(([a, c, b]) => a + c + b);
    const value = fc.oneof(clean, tainted);
    // A JSON object with a `__proto__` key is refused before validation, as MALFORMED_JSON (hapi's
    // prototype-poisoning guard): a refusal too, but not the one this property is about.
    const objectKey = clean.filter((s) => s !== '__proto__');

    it.each(documentedRoutes().map((route) => [`${route.method} ${route.path}`, route] as const))(
      '%s',
      async (_name, route) => {
        const params = paramNames(route.path);
        const queryKeys = [...keysOf(route.validate?.query), 'extra'];
        const bodyKeys = [...keysOf(route.validate?.payload), 'extra'];
        const places = [
          ...(params.length > 0 ? ['params' as const] : []),
          'query' as const,
          ...(takesBody(route) ? ['payload' as const] : []),
        ];
        const request = fc.record({
          params: fc.tuple(
            ...params.map(() =>
              fc.oneof(
                clean.filter((s) => s !== '' && s !== '.' && s !== '..'),
                tainted,
              ),
            ),
          ),
          query: fc.array(fc.tuple(fc.constantFrom(...queryKeys), value), { maxLength: 4 }),
          payload: fc.array(
            fc.tuple(
              fc.constantFrom(...bodyKeys),
              isForm(route)
                ? value
                : fc.oneof(value, fc.array(value, { maxLength: 2 }), fc.dictionary(objectKey, value, { maxKeys: 2 })),
            ),
            { maxLength: 4 },
          ),
          // The one string that is sure to hold a control character, and where it goes.
          forced: fc.record({ place: fc.constantFrom(...places), index: fc.nat(), inKey: fc.boolean(), text: tainted }),
          signedIn: fc.boolean(),
        });

        await fc.assert(
          fc.asyncProperty(
            request,
            async ({ params: paramValues, query: queryEntries, payload: payloadEntries, forced, signedIn }) => {
              // Copies: fast-check replays generated values while shrinking, so they must not be changed.
              const [values, query, payload] = [[...paramValues], [...queryEntries], [...payloadEntries]];
              if (forced.place === 'params') values[forced.index % values.length] = forced.text;
              if (forced.place === 'query')
                query.push(
                  forced.inKey ? [forced.text, 'v'] : [queryKeys[forced.index % queryKeys.length], forced.text],
                );
              if (forced.place === 'payload')
                payload.push(
                  forced.inKey ? [forced.text, 'v'] : [bodyKeys[forced.index % bodyKeys.length], forced.text],
                );
              let i = 0;
              const path = route.path.replace(/\{\w+\*?\}/g, () => encodeURIComponent(values[i++]));
              const search = new URLSearchParams(query).toString();
              const url = search ? `${path}?${search}` : path;
              const body = takesBody(route)
                ? isForm(route)
                  ? // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a form sends what String() makes of a generated value
                    new URLSearchParams(payload.map(([k, v]) => [k, String(v)])).toString()
                  : JSON.stringify(Object.fromEntries(payload))
                : undefined;
              const headers: Record<string, string> =
                body === undefined
                  ? {}
                  : { 'content-type': isForm(route) ? 'application/x-www-form-urlencoded' : 'application/json' };
              const response = await inject(t, route.method, url, signedIn ? admin : undefined, body, headers);

              const needsSession = route.auth !== 'none' && route.auth !== 'optional-session';
              if (needsSession && !signedIn) {
                expect(response.statusCode).toBe(401);
                return;
              }
              // Authentication comes before input: a signed-in session is the wrong one for the routes that complete a sign-in.
              if (route.auth === 'pending-session') {
                expect(response.statusCode).toBe(409);
                expect(response.json().code).toBe('SIGN_IN_NOT_PENDING');
                return;
              }
              expectRefused(response, route);
            },
          ),
          { numRuns: 25 },
        );
      },
    );
  });

  it('the admin session survived every refused request (logout among them)', async () => {
    expect((await inject(t, 'GET', '/api/admin/me', admin)).statusCode).toBe(200);
  });
});
