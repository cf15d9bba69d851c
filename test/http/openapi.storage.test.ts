import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig, loadConfigText } from '../../src/config/index.js';
import { staticOpenApiFile } from '../../src/http/routes/docs-routes.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';
import { testConfig } from '../support/config-fixture.js';
import { createTestDatabase } from '../support/databases.js';
import { pino } from 'pino';

/** docs/http-api.md, "OpenAPI", "Conventions", "Admin API": the API description and its reference UI. */
const specTags = ['Auth', 'User', 'Consent', 'Terms', 'OAuth Connect', 'OpenID', 'Health', 'Admin'];
const adminErrors: Record<string, string[]> = {
  'post /api/admin/users': ['401', '403', '409'],
  'get /api/admin/users/{sub}': ['401', '403', '404'],
  'patch /api/admin/users/{sub}': ['401', '403', '404', '409'],
  'delete /api/admin/users/{sub}': ['401', '403', '404'],
  'post /api/admin/users/{sub}/unlock': ['401', '403', '404'],
  'get /api/admin/groups/{id}/members': ['400', '401', '403', '404'],
  'put /api/admin/groups/{id}/members/{sub}': ['400', '401', '403', '404'],
  'delete /api/admin/groups/{id}/members/{sub}': ['400', '401', '403', '404'],
  'get /api/admin/users/{sub}/groups': ['400', '401', '403', '404'],
  'get /api/admin/clients/{client_id}/access': ['400', '401', '403', '404'],
};

describe('OpenAPI document and reference', () => {
  let t: TestApp;
  let doc: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const response = await inject(t, 'GET', '/api/docs/json');
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(() => t.destroy());

  it('validates as OpenAPI 3.1.0 with a real validator', async () => {
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('declares the default title, description and version 1.0.0', () => {
    expect(doc.info).toEqual({ title: 'idp API', description: 'OpenID Connect Provider API', version: '1.0.0' });
  });

  it('declares both security schemes (cookieSessionAuth, bearerAuth)', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.cookieSessionAuth).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'session' });
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('declares the eight tags, and every operation uses only those', () => {
    const declared = (doc.tags as { name: string }[]).map((tag) => tag.name);
    expect(declared.sort()).toEqual([...specTags].sort());
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.tags?.length, `${method} ${path} has a tag`).toBeGreaterThan(0);
        for (const tag of op.tags) expect(specTags, `${method} ${path}`).toContain(tag);
      }
    }
  });

  it('lists every admin operation with cookieSessionAuth, tag Admin and the admin errors', () => {
    const adminOps = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method} ${path}`, op] as const));
    // The admin user operations, and the later admin operations under the same rules.
    expect(adminOps.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'get /api/admin/me',
        'get /api/admin/users',
        'post /api/admin/users',
        'get /api/admin/users/{sub}',
        'patch /api/admin/users/{sub}',
        'delete /api/admin/users/{sub}',
        'post /api/admin/users/{sub}/unlock',
        'get /api/admin/events',
        'get /api/admin/terms',
        'get /api/admin/groups',
        'get /api/admin/groups/{id}/members',
        'put /api/admin/groups/{id}/members/{sub}',
        'delete /api/admin/groups/{id}/members/{sub}',
        'get /api/admin/users/{sub}/groups',
        'get /api/admin/clients/{client_id}/access',
      ]),
    );
    for (const [name, op] of adminOps) {
      expect(op.security, name).toEqual([{ cookieSessionAuth: [] }]);
      expect(op.tags, name).toEqual(['Admin']);
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(['401', '403']));
      for (const status of adminErrors[name] ?? []) {
        expect(op.responses[status], `${name} ${status}`).toBeDefined();
        expect(op.responses[status].content?.['application/json']?.schema, `${name} ${status} schema`).toBeDefined();
      }
    }
    expect(Object.keys(doc.paths['/api/admin/users'].post.responses)).toEqual(expect.arrayContaining(['200', '201']));
  });

  it('lists the upstream sign-in routes under Auth and the connections under OAuth Connect (issue 13)', () => {
    const paths = doc.paths as Record<string, Record<string, any>>;
    const op = (method: string, path: string) => paths[path]?.[method];
    for (const [method, path] of [
      ['get', '/api/auth/providers'],
      ['get', '/api/auth/providers/{id}/authorize'],
      ['get', '/api/auth/providers/{id}/callback'],
      ['post', '/api/auth/providers/{id}/callback'],
      ['get', '/api/auth/providers/{id}/link'],
    ]) {
      expect(op(method, path)?.tags, `${method} ${path}`).toEqual(['Auth']);
    }
    expect(Object.keys(op('get', '/api/auth/providers/{id}/authorize').responses)).toEqual(
      expect.arrayContaining(['302', '400', '404']),
    );
    expect(op('post', '/api/auth/providers/{id}/callback').requestBody.content).toHaveProperty([
      'application/x-www-form-urlencoded',
    ]);
    for (const [method, path] of [
      ['get', '/api/connections'],
      ['delete', '/api/connections/{provider_id}'],
    ]) {
      expect(op(method, path)?.tags, `${method} ${path}`).toEqual(['OAuth Connect']);
      expect(op(method, path)?.security, `${method} ${path}`).toEqual([{ cookieSessionAuth: [] }]);
    }
    expect(Object.keys(op('delete', '/api/connections/{provider_id}').responses)).toEqual(
      expect.arrayContaining(['204', '401', '404', '409']),
    );
  });

  it('lists the User operations with cookieSessionAuth, tag User and their errors; the DELETE body is optional', () => {
    const userOps: Record<string, string[]> = {
      'get /api/user': ['200', '401'],
      'patch /api/user': ['200', '400', '401', '403'],
      'post /api/user/password': ['204', '400', '401', '403', '429'],
      'delete /api/user': ['200', '400', '401', '403', '429'],
      'get /api/user/groups': ['200', '401'],
    };
    for (const [name, statuses] of Object.entries(userOps)) {
      const [method, path] = name.split(' ');
      const op = doc.paths[path]?.[method];
      expect(op, name).toBeDefined();
      expect(op.tags, name).toEqual(['User']);
      expect(op.security, name).toEqual([{ cookieSessionAuth: [] }]);
      expect(Object.keys(op.responses).sort(), name).toEqual(statuses);
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(op.responses[status].content?.['application/json']?.schema, `${name} ${status} schema`).toBeDefined();
      }
    }
    expect(
      doc.paths['/api/user'].get.responses['200'].content['application/json'].schema.properties.user.required,
    ).toEqual(expect.arrayContaining(['sub', 'name', 'given_name', 'family_name', 'locale', 'created_at']));
    expect(
      doc.paths['/api/user/groups'].get.responses['200'].content['application/json'].schema.properties.groups.items
        .properties.source.enum,
    ).toEqual(['config', 'database', 'upstream']);
    expect(doc.paths['/api/user'].delete.requestBody.required).toBe(false);
    expect(doc.paths['/api/user'].patch.requestBody.required).toBe(true);
  });

  it('lists every second-factor operation with its tag, security and responses', () => {
    const cookie = [{ cookieSessionAuth: [] }];
    const ops: Record<string, { tag: string; security: unknown; statuses: string[] }> = {
      'post /api/auth/login/totp': {
        tag: 'Auth',
        security: cookie,
        statuses: ['200', '400', '401', '403', '409', '429'],
      },
      'post /api/auth/login/recovery-code': {
        tag: 'Auth',
        security: cookie,
        statuses: ['200', '400', '401', '403', '409', '429'],
      },
      'post /api/auth/passkey/options': { tag: 'Auth', security: undefined, statuses: ['200', '400', '403'] },
      'post /api/auth/passkey/verify': { tag: 'Auth', security: undefined, statuses: ['200', '400', '401', '403'] },
      'post /api/user/totp': { tag: 'User', security: cookie, statuses: ['200', '400', '401', '403', '409'] },
      'post /api/user/totp/confirm': { tag: 'User', security: cookie, statuses: ['200', '400', '401', '403', '409'] },
      'delete /api/user/totp': {
        tag: 'User',
        security: cookie,
        statuses: ['204', '400', '401', '403', '404', '409', '429'],
      },
      'post /api/user/recovery-codes': {
        tag: 'User',
        security: cookie,
        statuses: ['200', '400', '401', '403', '404', '429'],
      },
      'get /api/user/passkeys': { tag: 'User', security: cookie, statuses: ['200', '400', '401', '403'] },
      'post /api/user/passkeys/options': { tag: 'User', security: cookie, statuses: ['200', '400', '401', '403'] },
      'post /api/user/passkeys': { tag: 'User', security: cookie, statuses: ['201', '400', '401', '403', '409'] },
      'patch /api/user/passkeys/{id}': { tag: 'User', security: cookie, statuses: ['200', '400', '401', '403', '404'] },
      'delete /api/user/passkeys/{id}': {
        tag: 'User',
        security: cookie,
        statuses: ['204', '400', '401', '403', '404', '409'],
      },
      'delete /api/admin/users/{sub}/second-factors': {
        tag: 'Admin',
        security: cookie,
        statuses: ['204', '400', '401', '403', '404'],
      },
      'get /api/admin/groups': { tag: 'Admin', security: cookie, statuses: ['200', '400', '401', '403'] },
      'get /api/admin/groups/{id}/members': {
        tag: 'Admin',
        security: cookie,
        statuses: ['200', '400', '401', '403', '404'],
      },
      'put /api/admin/groups/{id}/members/{sub}': {
        tag: 'Admin',
        security: cookie,
        statuses: ['204', '400', '401', '403', '404'],
      },
      'delete /api/admin/groups/{id}/members/{sub}': {
        tag: 'Admin',
        security: cookie,
        statuses: ['204', '400', '401', '403', '404'],
      },
      'get /api/admin/users/{sub}/groups': {
        tag: 'Admin',
        security: cookie,
        statuses: ['200', '400', '401', '403', '404'],
      },
      'get /api/admin/clients/{client_id}/access': {
        tag: 'Admin',
        security: cookie,
        statuses: ['200', '400', '401', '403', '404'],
      },
    };
    for (const [name, expected] of Object.entries(ops)) {
      const [method, path] = name.split(' ');
      const op = doc.paths[path]?.[method];
      expect(op, name).toBeDefined();
      expect(op.tags, name).toEqual([expected.tag]);
      expect(op.security, name).toEqual(expected.security);
      expect(Object.keys(op.responses).sort(), name).toEqual(expected.statuses);
      for (const status of expected.statuses.filter((s) => Number(s) >= 400)) {
        expect(op.responses[status].content?.['application/json']?.schema, `${name} ${status} schema`).toBeDefined();
      }
    }
    const login = doc.paths['/api/auth/login'].post.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(login)).toContain('enrolment_required');
    expect(
      doc.paths['/api/user/totp/confirm'].post.responses['200'].content['application/json'].schema.properties
        .recovery_codes,
    ).toMatchObject({ minItems: 10, maxItems: 10 });
  });

  it('GET /api/docs serves the self-hosted reference titled openapi.ui_title', async () => {
    const page = await inject(t, 'GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.payload).toContain('<title>idp API Reference</title>');
    expect(page.payload).not.toMatch(/https?:\/\//i);
    expect(page.payload).not.toMatch(/(src|href)\s*=\s*["']?\/\//i);
    const assets = [...page.payload.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      const url = new URL(asset, 'http://localhost:8080/api/docs');
      const response = await inject(t, 'GET', url.pathname);
      expect(response.statusCode, asset).toBe(200);
      expect(response.rawPayload.length, asset).toBeGreaterThan(0);
    }
  });

  it('the reference page loads the live document of this server', async () => {
    const init = await inject(t, 'GET', '/api/docs/init.js');
    expect(init.statusCode).toBe(200);
    expect(init.payload).not.toMatch(/https?:\/\//i);
    // Swagger UI's default validatorUrl would send the document to validator.swagger.io.
    expect(init.payload).toMatch(/validatorUrl:\s*null/);
    const url = /url:\s*'([^']+)'/.exec(init.payload)?.[1];
    expect(url).toBeDefined();
    const target = new URL(url!, 'http://localhost:8080/api/docs');
    expect((await inject(t, 'GET', target.pathname)).json()).toEqual(doc);
  });

  it('answers 404 for an unknown asset', async () => {
    const response = await inject(t, 'GET', '/api/docs/assets/package.json');
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('GET /openapi.json (built by npm run build) equals the live document of the built-in default config', async () => {
    const result = await loadConfig({ file: null, env: {}, cwd: process.cwd() });
    if (!result.ok) throw new Error('the built-in default configuration is invalid');
    const database = await createTestDatabase('sqlite');
    const app = await createApp(
      { ...result.config, database: database.config },
      { storage: database.storage, logger: pino({ level: 'silent' }) },
    );
    try {
      const live = JSON.parse((await app.server.inject({ method: 'GET', url: '/api/docs/json' })).payload);
      const served = await app.server.inject({ method: 'GET', url: '/openapi.json' });
      expect(served.statusCode, 'run npm run build first').toBe(200);
      expect(JSON.parse(served.payload)).toEqual(live);
      expect(JSON.parse(await readFile(staticOpenApiFile, 'utf8'))).toEqual(live);
    } finally {
      await app.stop({ timeoutMs: 1000 });
      await database.destroy();
    }
  });
});

describe('OpenAPI with configured values', () => {
  let t: TestApp;
  afterAll(() => t?.destroy());

  it('uses openapi.title, description and ui_title', async () => {
    t = await createTestApp('sqlite', {
      openapi: { enabled: true, title: 'Acme Identity API', description: 'Sign-in for Acme', uiTitle: 'Acme <Docs>' },
    });
    const doc = (await inject(t, 'GET', '/api/docs/json')).json();
    expect(doc.info).toEqual({ title: 'Acme Identity API', description: 'Sign-in for Acme', version: '1.0.0' });
    const page = await inject(t, 'GET', '/api/docs');
    expect(page.payload).toContain('<title>Acme &#60;Docs&#62;</title>');
  });
});

describe('OpenAPI defaults follow branding.name', () => {
  it('titles the document "<branding.name> API" and the UI "<branding.name> API Reference"', async () => {
    const result = loadConfigText('branding:\n  name: Acme\n', { file: null, env: {}, cwd: process.cwd() });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const database = await createTestDatabase('sqlite');
    const app = await createApp(
      { ...result.config, database: database.config },
      { storage: database.storage, logger: pino({ level: 'silent' }) },
    );
    try {
      const doc = JSON.parse((await app.server.inject({ method: 'GET', url: '/api/docs/json' })).payload);
      expect(doc.info).toEqual({ title: 'Acme API', description: 'OpenID Connect Provider API', version: '1.0.0' });
      expect((await app.server.inject({ method: 'GET', url: '/api/docs' })).payload).toContain(
        '<title>Acme API Reference</title>',
      );
    } finally {
      await app.stop({ timeoutMs: 1000 });
      await database.destroy();
    }
  });
});

describe('OpenAPI disabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp('sqlite', { openapi: { ...base.openapi, enabled: false } });
  });
  afterAll(() => t.destroy());

  it.each(['/api/docs', '/api/docs/json', '/api/docs/init.js', '/api/docs/assets/swagger-ui.css'])(
    'GET %s is 404 JSON',
    async (url) => {
      const response = await inject(t, 'GET', url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    },
  );
});
