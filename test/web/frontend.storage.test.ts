import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtinUiDirectory,
  createFrontend,
  fillHtmlVariables,
  isApiPath,
  ProxyTimeoutError,
  usesBuiltinUi,
} from '../../src/web/index.js';
import { createProxyFrontend } from '../../src/web/proxy-frontend.js';
import { testConfig } from '../support/config-fixture.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const branding = testConfig().branding;

describe('fillHtmlVariables', () => {
  it.each([
    ['<title>{{NAME}}</title>', { NAME: 'Acme' }, '<title>Acme</title>'],
    ['{{ NAME }} and {{NAME}}', { NAME: 'x' }, 'x and x'],
    ['{{MISSING}}', {}, '{{MISSING}}'],
    ['{{constructor}}', {}, '{{constructor}}'],
    ['<script>{{ANALYTICS}}</script>', { ANALYTICS: 'track()' }, '<script>track()</script>'],
  ])('fills %j', (html, variables, expected) => {
    expect(fillHtmlVariables(html, variables)).toBe(expected);
  });
});

describe('isApiPath', () => {
  it.each([
    ['/api/health', true],
    ['/api', true],
    ['/oauth2/authorize', true],
    ['/.well-known/openid-configuration', true],
    ['/openapi.json', true],
    ['/login', false],
    ['/', false],
    ['/apiary', false],
    ['/ui/app.css', false],
  ])('%s → %s', (pathname, expected) => {
    expect(isApiPath(pathname)).toBe(expected);
  });
});

describe('static mode', () => {
  it("serves the built-in UI's files by default, and no page: those are rendered (src/web/pages)", async () => {
    const frontend = createFrontend({ ...testConfig().frontend, path: '' }, branding);
    if (frontend.mode !== 'static') throw new Error('expected static');
    expect(frontend.builtin).toBe(true);
    // Not a page: named by its path, for the HTTP layer to stream.
    expect(await frontend.static.load('/ui/login.js')).toEqual({
      contentType: 'text/javascript; charset=utf-8',
      file: path.join(frontend.static.directory, 'ui', 'login.js'),
    });
    expect((await frontend.static.load('/ui/app.css'))?.contentType).toBe('text/css; charset=utf-8');
    // No single-page fallback for the built-in UI: an unknown page is a 404.
    expect(await frontend.static.load('/login')).toBeNull();
    expect(await frontend.static.load('/nothing-here')).toBeNull();
  });

  it.each([
    [{ enabled: true, mode: 'static', path: '' }, true],
    [{ enabled: true, mode: 'static', path: builtinUiDirectory }, true],
    [{ enabled: true, mode: 'static', path: '/srv/www' }, false],
    [{ enabled: true, mode: 'proxy', path: 'http://127.0.0.1:5173' }, false],
    [{ enabled: false, mode: 'static', path: '' }, false],
  ] as const)('usesBuiltinUi(%j) is %s', (frontend, expected) => {
    expect(usesBuiltinUi({ ...frontend, htmlVariables: {} })).toBe(expected);
  });

  describe('with an operator directory', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'idp-web-'));
      await mkdir(path.join(dir, 'assets'));
      await writeFile(path.join(dir, 'index.html'), '<h1>{{BRANDING_NAME}} {{GREETING}}</h1>');
      await writeFile(path.join(dir, 'assets', 'app.js'), 'console.log("{{GREETING}}")');
      await writeFile(path.join(dir, '..', `${path.basename(dir)}-secret.txt`), 'secret');
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}-secret.txt`, { force: true });
    });

    it('fills html_variables in HTML only and falls back to index.html for app routes', async () => {
      const frontend = createFrontend(
        { enabled: true, mode: 'static', path: dir, htmlVariables: { GREETING: 'hello' } },
        branding,
      );
      if (frontend.mode !== 'static') throw new Error('expected static');
      expect(await frontend.static.load('/')).toMatchObject({ body: '<h1>idp hello</h1>' });
      expect(await frontend.static.load('/settings/profile')).toMatchObject({ body: '<h1>idp hello</h1>' });
      expect(await frontend.static.load('/assets/app.js')).toEqual({
        contentType: 'text/javascript; charset=utf-8',
        file: path.join(dir, 'assets', 'app.js'),
      });
      expect(await frontend.static.load('/assets/missing.js')).toBeNull();
    });

    it('never reads outside the directory', async () => {
      const frontend = createFrontend({ enabled: true, mode: 'static', path: dir, htmlVariables: {} }, branding);
      if (frontend.mode !== 'static') throw new Error('expected static');
      for (const attempt of [
        `/../${path.basename(dir)}-secret.txt`,
        `/%2e%2e/${path.basename(dir)}-secret.txt`,
        '/..%2f..%2fetc%2fpasswd',
        '/%00',
      ]) {
        const found = await frontend.static.load(attempt);
        expect(
          found === null ||
            ('file' in found ? found.file.startsWith(`${dir}${path.sep}`) : !found.body.includes('secret')),
        ).toBe(true);
      }
    });
  });
});

describe('static files through the server (@hapi/inert)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.destroy());

  it('answers with the type, an ETag, 304 for a matching If-None-Match, and ranges', async () => {
    const css = await t.app.server.inject('/ui/app.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=300');
    const etag = css.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await t.app.server.inject({ url: '/ui/app.css', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
    const part = await t.app.server.inject({ url: '/ui/app.css', headers: { range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.payload).toBe(css.payload.slice(0, 10));
    expect((await t.app.server.inject('/ui/login.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('never serves a file outside the directory', async () => {
    for (const attempt of [
      '/ui/..%2f..%2f..%2fpackage.json',
      '/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/ui/%2e%2e/%2e%2e/builtin-ui-directory.ts',
    ]) {
      const answer = await t.app.server.inject(attempt);
      expect(answer.statusCode, attempt).toBe(404);
    }
  });

  it('serves the reference UI files the same way', async () => {
    const bundle = await t.app.server.inject('/api/docs/assets/swagger-ui.css');
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(
      (
        await t.app.server.inject({
          url: '/api/docs/assets/swagger-ui.css',
          headers: { 'if-none-match': bundle.headers.etag as string },
        })
      ).statusCode,
    ).toBe(304);
  });
});

describe('proxy mode', () => {
  let upstream: http.Server;
  let url: string;
  const seen: { method?: string; url?: string; host?: string; forwardedHost?: string; body: string }[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          host: req.headers.host,
          forwardedHost: req.headers['x-forwarded-host'] as string,
          body,
        });
        if (req.url?.startsWith('/base/page')) {
          const html = '<p>{{GREETING}} from upstream</p>';
          res.writeHead(200, {
            'content-type': 'text/html',
            'content-length': String(Buffer.byteLength(html)),
            'x-upstream': 'yes',
          });
          res.end(html);
        } else {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ echoed: body }));
        }
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base/`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('forwards under the upstream base path and fills html_variables in HTML answers', async () => {
    const frontend = createFrontend(
      { enabled: true, mode: 'proxy', path: url, htmlVariables: { GREETING: 'hi' } },
      branding,
    );
    if (frontend.mode !== 'proxy') throw new Error('expected proxy');
    const answer = await frontend.proxy.forward({
      method: 'GET',
      url: '/page?x=1',
      headers: { host: 'idp.example', connection: 'keep-alive' },
      body: null,
      clientAddress: '127.0.0.9',
      protocol: 'http',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('<p>hi from upstream</p>');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/base/page?x=1', forwardedHost: 'idp.example' });
    expect(seen.at(-1)?.host).toBe(new URL(url).host);
  });

  it('streams other methods and bodies both ways', async () => {
    const frontend = createFrontend({ enabled: true, mode: 'proxy', path: url, htmlVariables: {} }, branding);
    if (frontend.mode !== 'proxy') throw new Error('expected proxy');
    const answer = await frontend.proxy.forward({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'text/plain' },
      body: Readable.from(['a=1']),
      clientAddress: '127.0.0.1',
      protocol: 'http',
    });
    expect(answer.status).toBe(201);
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body as Readable) chunks.push(chunk as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({ echoed: 'a=1' });
  });
  it('gives up on a front end silent for longer than its timeout, and on a request whose browser left', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const slow = createProxyFrontend(
        { upstream: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, variables: {} },
        200,
      );
      const request = {
        method: 'GET',
        url: '/',
        headers: {},
        body: null,
        clientAddress: '127.0.0.1',
        protocol: 'http' as const,
      };
      await expect(slow.forward(request)).rejects.toBeInstanceOf(ProxyTimeoutError);
      await expect(slow.forward({ ...request, abandoned: Promise.resolve() })).rejects.toThrow('socket hang up');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('answers 502 with a page through the server when the front end does not answer', async () => {
    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const t = await createTestApp('sqlite', {
      frontend: { enabled: true, mode: 'proxy', path: `http://127.0.0.1:${port}`, htmlVariables: {} },
    });
    try {
      const answer = await t.app.server.inject('/anything');
      expect(answer.statusCode).toBe(502);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.payload).toContain('The front end is not answering.');
    } finally {
      await t.destroy();
    }
  });
});

describe('disabled', () => {
  it('serves nothing (API-only)', () => {
    expect(createFrontend({ enabled: false, mode: 'static', path: '', htmlVariables: {} }, branding)).toEqual({
      mode: 'disabled',
    });
  });
});
