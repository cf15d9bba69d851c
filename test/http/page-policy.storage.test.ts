import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { routeTable } from '../../src/http/routes.js';
import { testClient, testUser, testIdentityProvider } from '../support/config-fixture.js';
import { createTestApp, inject, signIn, type TestApp } from '../support/test-app.js';

/**
 * Issue 10, Content-Security-Policy (src/http/page-policy.ts,
 * src/web/content-security-policy.ts): every HTML page idp renders sends a
 * policy, which one per kind of page, and the operator's own front end gets
 * none. That the pages still work under it: test/e2e/page-policy.browser.test.ts.
 */
type Response = Awaited<ReturnType<typeof inject>>;

function directivesOf(response: Response): Record<string, string> {
  const header = response.headers['content-security-policy'];
  if (typeof header !== 'string') throw new Error(`no Content-Security-Policy on ${response.request.url.pathname}`);
  return Object.fromEntries(
    header.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources.join(' ')];
    }),
  );
}

const idpPage = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self'",
  'connect-src': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
};

const isHtml = (response: Response) => String(response.headers['content-type'] ?? '').startsWith('text/html');

describe('Content-Security-Policy of the pages', () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: ['https://web.example.com/cb;script-src *'], skipConsent: true }),
      ],
    });
    await applyConfig(t.database.storage, t.config);
    cookie = await signIn(t, 'alice@example.com');
  });
  afterAll(() => t.destroy());

  // Without the session: the walk passes /oauth2/logout, which would end it.
  const get = (url: string) => inject(t, 'GET', url);

  it('every HTML answer of a GET row of the route table has a policy with the base directives', async () => {
    const urls = routeTable(t.config)
      .filter((row) => row.method === 'GET')
      .map((row) => row.path.replace('{file}', 'swagger-ui.css').replace('{path*}', 'login'))
      .filter((url) => !url.includes('{'));
    const pages: string[] = [];
    for (const url of [
      ...urls,
      '/',
      '/consent',
      '/no-such-page',
      '/login?return_to=//evil.example',
      '/oauth2/authorize',
    ]) {
      const response = await get(url);
      if (!isHtml(response)) continue;
      pages.push(url);
      const directives = directivesOf(response);
      expect(directives['default-src'], url).toBe("'none'");
      expect(directives['script-src'], url).not.toMatch(/unsafe|\*/);
      expect(directives['base-uri'], url).toBe("'none'");
      expect(directives['form-action'], url).toBeDefined();
      expect(directives['frame-ancestors'], url).toBeDefined();
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
    // The walk did reach the pages: the reference, the interaction pages, error pages, logout.
    expect(pages).toEqual(
      expect.arrayContaining([
        '/api/docs',
        '/oauth2/logout',
        '/login',
        '/',
        '/consent',
        '/no-such-page',
        '/oauth2/authorize',
      ]),
    );
  });

  it.each([
    ['the sign-in page', '/login', 200],
    ['the consent page without an authorization request', '/consent', 400],
    ['the start page', '/', 200],
    ['the registration page (closed)', '/register', 404],
    ['the e-mail verification page', '/verify-email?token=x', 200],
    ['the password reset page', '/reset-password?token=x', 200],
    ['a page that does not exist', '/no-such-page', 404],
    ['a refused return_to', '/login?return_to=//evil.example', 400],
    ['a rejected authorization request', '/oauth2/authorize?client_id=nobody', 400],
    ['the signed-out page', '/oauth2/logout', 200],
  ])('%s gets the policy of idp pages', async (_name, url, status) => {
    const response = await get(url);
    expect(response.statusCode).toBe(status);
    expect(directivesOf(response)).toEqual(idpPage);
  });

  it("the API reference also allows data: images (Swagger UI's icons), nothing else", async () => {
    expect(directivesOf(await get('/api/docs'))).toEqual({ ...idpPage, 'img-src': "'self' data:" });
  });

  it("the form_post page allows its own hashed script, and the client's origin as form target and frame parent", async () => {
    const query = new URLSearchParams({
      client_id: 'web',
      redirect_uri: 'https://web.example.com/cb;script-src *',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      response_mode: 'form_post',
    });
    const response = await inject(t, 'GET', `/oauth2/authorize?${query}`, cookie);
    expect(response.statusCode).toBe(200);
    // One inline script, no inline event handler (which a hash cannot allow without 'unsafe-hashes').
    const scripts = [...response.payload.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1]);
    expect(scripts).toEqual(['document.forms[0].submit();']);
    expect(response.payload).not.toMatch(/ on[a-z]+=/);
    // The origin only: the registered URI's path (here with ";") never reaches the header.
    expect(directivesOf(response)).toEqual({
      ...idpPage,
      'script-src': `'sha256-${createHash('sha256').update(scripts[0]).digest('base64')}'`,
      'style-src': "'none'",
      'img-src': "'none'",
      'connect-src': "'none'",
      'form-action': 'https://web.example.com',
      'frame-ancestors': 'https://web.example.com',
    });
  });

  it('JSON, scripts and styles get no page policy', async () => {
    for (const url of [
      '/api/health',
      '/ui/login.js',
      '/ui/app.css',
      '/ui/theme.css',
      '/.well-known/openid-configuration',
      '/api/nothing',
    ]) {
      expect((await get(url)).headers['content-security-policy'], url).toBeUndefined();
    }
  });
});

describe('branding.logo_url widens img-src to its source, and only to it', () => {
  it.each([
    ['a logo on another host', 'https://cdn.example.com/brand/logo.svg?v=1;x', "'self' https://cdn.example.com"],
    ['an inline logo', 'data:image/svg+xml;base64,PHN2Zy8+', "'self' data:"],
    ['a logo on this server', '/ui/logo.svg', "'self'"],
    ["a logo at this server's own origin", 'http://localhost:8080/logo.png', "'self'"],
    ['a logo URL that is no image source', 'javascript:alert(1)', "'self'"],
  ])('%s', async (_name, logoUrl, imgSrc) => {
    const app = await createTestApp('sqlite', { branding: { name: 'Acme', logoUrl, primaryColor: null } });
    try {
      const page = await inject(app, 'GET', '/login');
      expect(directivesOf(page)).toEqual({ ...idpPage, 'img-src': imgSrc });
      // A URL that could run code is no logo: the name stands in.
      expect(page.payload.includes('class="brand-logo"')).toBe(!logoUrl.startsWith('javascript:'));
    } finally {
      await app.destroy();
    }
  });
});

describe('identity_providers[].icon_url widens img-src too, each source once', () => {
  it("lists the logo's and the icons' origins", async () => {
    const icons = [
      'https://cdn.example.com/github.svg',
      'https://icons.example.org/corp.png',
      'https://cdn.example.com/apple.svg',
      null,
    ];
    const app = await createTestApp('sqlite', {
      branding: { name: 'Acme', logoUrl: 'https://cdn.example.com/logo.svg', primaryColor: null },
      identityProviders: icons.map((iconUrl, index) => testIdentityProvider({ id: `p${index}`, iconUrl })),
    });
    try {
      expect(directivesOf(await inject(app, 'GET', '/login'))['img-src']).toBe(
        "'self' https://cdn.example.com https://icons.example.org",
      );
    } finally {
      await app.destroy();
    }
  });
});

describe("the operator's own front end gets no policy from idp", () => {
  let directory: string;
  let upstream: http.Server;
  let staticApp: TestApp;
  let proxyApp: TestApp;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'idp-operator-ui-'));
    await writeFile(
      path.join(directory, 'index.html'),
      '<!doctype html><title>Operator</title><script>inline()</script>',
    );
    upstream = http.createServer((req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(req.url === '/own' ? { 'content-security-policy': "default-src 'self'" } : {}),
      });
      res.end('<!doctype html><title>Proxied</title>');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    staticApp = await createTestApp('sqlite', {
      frontend: { enabled: true, mode: 'static', path: directory, htmlVariables: {} },
    });
    proxyApp = await createTestApp('sqlite', {
      frontend: { enabled: true, mode: 'proxy', path: upstreamUrl, htmlVariables: {} },
    });
  });
  afterAll(async () => {
    await staticApp.destroy();
    await proxyApp.destroy();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await rm(directory, { recursive: true, force: true });
  });

  it("static mode with the operator's directory: its pages go out as they are; idp's own 404 page keeps its policy", async () => {
    const page = await inject(staticApp, 'GET', '/app/route');
    expect(page.payload).toContain('<title>Operator</title>');
    expect(page.headers['content-security-policy']).toBeUndefined();
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const missing = await inject(staticApp, 'GET', '/missing.png');
    expect(missing.statusCode).toBe(404);
    expect(directivesOf(missing)).toEqual(idpPage);
    // idp's pages outside the front end still have theirs.
    expect(directivesOf(await inject(staticApp, 'GET', '/oauth2/logout'))).toEqual(idpPage);
  });

  it("proxy mode: the upstream's answer passes with its own policy or none", async () => {
    expect((await inject(proxyApp, 'GET', '/anything')).headers['content-security-policy']).toBeUndefined();
    expect((await inject(proxyApp, 'GET', '/own')).headers['content-security-policy']).toBe("default-src 'self'");
  });
});
