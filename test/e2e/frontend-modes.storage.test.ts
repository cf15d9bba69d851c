import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from './support/start-idp.js';

/** The frontend group through the real server (docs/oidc.md, "Frontend serving"); config only, so SQLite is enough. */
describe('frontend modes through the server', () => {
  let upstream: http.Server;
  let upstreamUrl: string;
  const forwarded: string[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      forwarded.push(`${req.method} ${req.url}`);
      if (req.url === '/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end('export const title = "{{TITLE}}";');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
      res.end(`<title>{{TITLE}}</title><p>${req.method} ${req.url}</p>`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  describe('static (the built-in UI): rendered pages, which html_variables do not touch', () => {
    let idp: RunningIdp;
    beforeAll(async () => {
      idp = await startIdp('sqlite', {
        branding: { name: 'Acme & Co', logoUrl: null, primaryColor: null },
        frontend: { enabled: true, mode: 'static', path: '', htmlVariables: { BRANDING_NAME: 'Overridden' } },
      });
    });
    afterAll(() => idp.stop());

    it('serves the pages with the branding name, and scripts and CSS as they are', async () => {
      const login = await fetch(`${idp.url}/login`);
      expect(login.status).toBe(200);
      expect(login.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(login.headers.get('cache-control')).toBe('no-store');
      expect(await login.text()).toContain('<title>Sign in · Acme &#38; Co</title>');
      const css = await fetch(`${idp.url}/ui/app.css`);
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
      const script = await fetch(`${idp.url}/ui/login.js`);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    });

    it('keeps API paths for the API: an unknown one is a JSON 404', async () => {
      for (const path of ['/api/nothing', '/oauth2/nothing', '/.well-known/nothing']) {
        const response = await fetch(`${idp.url}${path}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
      const page = await fetch(`${idp.url}/no-such-page`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
    });
  });

  describe('branding name in titles', () => {
    let idp: RunningIdp;
    beforeAll(async () => {
      idp = await startIdp('sqlite', { branding: { name: 'Acme <ID>', logoUrl: null, primaryColor: null } });
    });
    afterAll(() => idp.stop());

    it('escapes the name into the title', async () => {
      expect(await (await fetch(`${idp.url}/login`)).text()).toContain('<title>Sign in · Acme &#60;ID&#62;</title>');
      expect(await (await fetch(`${idp.url}/consent`)).text()).toContain(
        '<title>Allow access · Acme &#60;ID&#62;</title>',
      );
    });
  });

  describe('proxy', () => {
    let idp: RunningIdp;
    beforeAll(async () => {
      idp = await startIdp('sqlite', {
        frontend: { enabled: true, mode: 'proxy', path: upstreamUrl, htmlVariables: { TITLE: 'Proxied' } },
      });
    });
    afterAll(() => idp.stop());

    it('forwards non-API paths with every method and fills html_variables in HTML', async () => {
      const page = await fetch(`${idp.url}/dashboard?tab=1`);
      expect(await page.text()).toBe('<title>Proxied</title><p>GET /dashboard?tab=1</p>');
      expect(page.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      const script = await fetch(`${idp.url}/app.js`);
      expect(await script.text()).toBe('export const title = "{{TITLE}}";');
      // The built-in pages' paths are the front end's too.
      expect(await (await fetch(`${idp.url}/login`)).text()).toBe('<title>Proxied</title><p>GET /login</p>');
      const posted = await fetch(`${idp.url}/form`, {
        method: 'POST',
        body: 'a=1',
        headers: { 'content-type': 'text/plain' },
      });
      expect(await posted.text()).toContain('POST /form');
    });

    it('never forwards API paths', async () => {
      forwarded.length = 0;
      for (const path of [
        '/api/health',
        '/api/nothing',
        '/oauth2/authorize',
        '/.well-known/openid-configuration',
        '/openapi.json',
      ]) {
        await fetch(`${idp.url}${path}`, { redirect: 'manual' });
      }
      expect(forwarded).toEqual([]);
    });
  });

  describe('enabled: false', () => {
    let idp: RunningIdp;
    beforeAll(async () => {
      idp = await startIdp('sqlite', { frontend: { enabled: false, mode: 'static', path: '', htmlVariables: {} } });
    });
    afterAll(() => idp.stop());

    it('serves no pages: API only', async () => {
      const login = await fetch(`${idp.url}/login`);
      expect(login.status).toBe(404);
      expect(await login.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await fetch(`${idp.url}/api/health`)).status).toBe(200);
    });
  });
});
