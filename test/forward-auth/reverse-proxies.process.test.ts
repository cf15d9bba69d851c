import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer, connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeTrustProxy } from '../../src/config/normalize-trust-proxy.js';
import type { ForwardAuthAppConfig } from '../../src/config/types.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { joinGroup } from '../support/group-members.js';
import { repoRoot, spawnProcess, waitUntil, type SpawnedProcess } from '../support/spawned-process.js';
import { createTestApp, seedUser, testPassword, type TestApp } from '../support/test-app.js';

/**
 * Forward authentication behind the real proxies (docs/forward-auth.md):
 * Debian's nginx (auth_request → GET /api/auth-request) and Caddy
 * (forward_auth → GET /api/forward-auth), each started here on 127.0.0.1
 * with the configuration the docs show, in front of a small app that echoes
 * the identity headers it receives. Chromium maps every *.example.test name
 * to 127.0.0.1, so that the session cookie's Domain (example.test) is real.
 */

const headers = { user: 'Remote-User', email: 'Remote-Email', name: 'Remote-Name', groups: 'Remote-Groups' };
const apps: ForwardAuthAppConfig[] = [
  { host: 'app.example.test', pathPrefix: '/', access: null, headers },
  { host: 'ops.example.test', pathPrefix: '/', access: { groups: ['sre'], roles: null, secondFactor: null }, headers },
];

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The protected app: answers every request with the Remote-* headers it received. */
async function startEchoApp(): Promise<{ server: Server; port: number }> {
  const server = createHttpServer((request, response) => {
    const identity = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith('remote-')));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>app</title><pre id="echo">${JSON.stringify({ path: request.url, identity })}</pre>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function nginxConfig(dir: string, port: number, idp: string, app: number): string {
  const base = `http://id.example.test:${new URL(idp).port}`;
  return `worker_processes 1;
daemon off;
user root;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name app.example.test ops.example.test other.example.test;
    location / {
      auth_request /_idp_auth;
      auth_request_set $idp_user $upstream_http_remote_user;
      auth_request_set $idp_email $upstream_http_remote_email;
      auth_request_set $idp_name $upstream_http_remote_name;
      auth_request_set $idp_groups $upstream_http_remote_groups;
      proxy_set_header Remote-User $idp_user;
      proxy_set_header Remote-Email $idp_email;
      proxy_set_header Remote-Name $idp_name;
      proxy_set_header Remote-Groups $idp_groups;
      error_page 401 = @idp_login;
      proxy_pass http://127.0.0.1:${app};
    }
    location = /_idp_auth {
      internal;
      proxy_pass ${idp.replace('localhost', '127.0.0.1')}/api/auth-request;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Original-URL $scheme://$http_host$request_uri;
    }
    location @idp_login {
      if ($http_accept ~* "text/html") {
        return 302 ${base}/login?return_to=$scheme://$http_host$request_uri;
      }
      return 401;
    }
  }
}
`;
}

function caddyConfig(port: number, idp: string, app: number): string {
  return `{
  admin off
  auto_https off
}
http://app.example.test:${port}, http://ops.example.test:${port}, http://other.example.test:${port} {
  bind 127.0.0.1
  route {
    request_header -Remote-*
    forward_auth ${idp.replace('http://', '')} {
      uri /api/forward-auth
      copy_headers Remote-User Remote-Email Remote-Name Remote-Groups
    }
    reverse_proxy 127.0.0.1:${app}
  }
}
`;
}

/** A GET through a proxy with the Host the browser would send; undici's fetch cannot set Host. */
function get(
  port: number,
  host: string,
  pathAndQuery: string,
  requestHeaders: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path: pathAndQuery, headers: { host: `${host}:${port}`, ...requestHeaders } },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** What the echo app saw, from its page. */
function echoed(body: string): { path: string; identity: Record<string, string> } {
  const json = /<pre id="echo">(.*)<\/pre>/s.exec(body)?.[1];
  if (!json) throw new Error(`not the echo app: ${body.slice(0, 200)}`);
  return JSON.parse(json) as { path: string; identity: Record<string, string> };
}

/** A raw request, for what an HTTP client library would refuse to send (CR, LF or NUL in the URI): the whole answer. */
function rawAnswer(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe.each(databaseKinds)('forward authentication behind nginx and Caddy on %s', (kind) => {
  let t: TestApp;
  let idpUrl: string;
  let dir: string;
  let echo: { server: Server; port: number };
  let browser: Browser;
  const proxies: { name: string; port: number; process: SpawnedProcess }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-forward-auth-'));
    const idpPort = await freePort();
    const base = testConfig();
    t = await createTestApp(kind, {
      server: {
        ...base.server,
        host: '127.0.0.1',
        port: idpPort,
        baseUrl: `http://id.example.test:${idpPort}`,
        trustProxy: normalizeTrustProxy(['127.0.0.1']),
      },
      forwardAuth: { cookieDomain: 'example.test', apps },
    });
    idpUrl = await t.app.start();
    await seedUser(t, { sub: 'alice', email: 'alice@example.com', name: 'Alice' });
    await seedUser(t, { sub: 'bob', email: 'bob@example.com' });
    await joinGroup(t.database.storage, 'sre', ['alice']);
    echo = await startEchoApp();

    const nginxPort = await freePort();
    await writeFile(path.join(dir, 'nginx.conf'), nginxConfig(dir, nginxPort, idpUrl, echo.port));
    const nginx = spawnProcess('/usr/sbin/nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], {});
    proxies.push({ name: 'nginx', port: nginxPort, process: nginx });
    const caddyPort = await freePort();
    await writeFile(path.join(dir, 'Caddyfile'), caddyConfig(caddyPort, idpUrl, echo.port));
    const caddy = spawnProcess(
      '/usr/bin/caddy',
      ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
      { HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    );
    proxies.push({ name: 'caddy', port: caddyPort, process: caddy });
    for (const proxy of proxies)
      await waitUntil(
        async () => (await get(proxy.port, 'app.example.test', '/').catch(() => ({ status: 0 }))).status !== 0,
        20_000,
        `${proxy.name} listening`,
      );

    browser = await chromium.launch({
      headless: true,
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--host-resolver-rules=MAP *.example.test 127.0.0.1',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(proxies.splice(0).map((p) => p.process.stop()));
    await new Promise((resolve) => echo?.server.close(resolve));
    await t?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  for (const proxyName of ['nginx', 'caddy']) {
    describe(proxyName, () => {
      const proxy = () => proxies.find((p) => p.name === proxyName)!;

      it('sends an unauthenticated browser to sign in and back to the app with the identity headers; sign-out ends access at the next request', async () => {
        const { port } = proxy();
        const context = await browser.newContext();
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`http://app.example.test:${port}/reports?week=12`);
        await page.waitForURL(
          (url) => url.host === `id.example.test:${new URL(idpUrl).port}` && url.pathname === '/login',
        );
        expect(new URL(page.url()).searchParams.get('return_to')).toBe(
          `http://app.example.test:${port}/reports?week=12`,
        );
        await page.getByLabel('Email').fill('alice@example.com');
        await page.getByLabel('Password', { exact: true }).fill(testPassword);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.waitForURL((url) => url.host === `app.example.test:${port}`);
        const seen = echoed(await page.content());
        expect(seen.path).toBe('/reports?week=12');
        expect(seen.identity).toEqual({
          'remote-user': 'alice',
          'remote-email': 'alice@example.com',
          'remote-name': 'Alice',
          'remote-groups': 'sre',
        });
        // The cookie covers the other app too: one sign-in, and its access rule holds.
        await page.goto(`http://ops.example.test:${port}/`);
        expect(echoed(await page.content()).identity['remote-user']).toBe('alice');

        const cookie = (await context.cookies()).find((c) => c.name === 'session');
        expect(cookie?.domain).toBe('.example.test');
        // Signing out on idp's own page, as its account page does.
        await page.goto(`http://id.example.test:${new URL(idpUrl).port}/`);
        expect(await page.evaluate(async () => (await fetch('/api/auth/logout', { method: 'POST' })).status)).toBe(204);
        await page.goto(`http://app.example.test:${port}/reports`);
        await page.waitForURL((url) => url.pathname === '/login');
        await context.close();
      });

      it('refuses open redirects through return_to on the sign-in page', async () => {
        const login = `http://id.example.test:${new URL(idpUrl).port}/login`;
        for (const target of [
          'https://evil.test/',
          '//evil.test/',
          `http://app.example.test.evil.test:${proxy().port}/`,
          `http://app.example.test:${proxy().port}@evil.test/`,
          `http://evil.test\\@app.example.test/`,
          `http://other.example.test:${proxy().port}/`,
          'javascript:alert(document.cookie)',
        ]) {
          const response = await fetch(
            `${login}?${new URLSearchParams({ return_to: target })}`.replace('id.example.test', '127.0.0.1'),
          );
          expect(response.status, target).toBe(400);
        }
        const ok = await fetch(
          `${login}?${new URLSearchParams({ return_to: `http://app.example.test:${proxy().port}/x` })}`.replace(
            'id.example.test',
            '127.0.0.1',
          ),
        );
        expect(ok.status).toBe(200);
      });

      it('answers a JSON client 401, a user outside the policy 403 and an undeclared host 403, and never passes client-sent Remote-* headers', async () => {
        const { port } = proxy();
        const bobLogin = await fetch(`${idpUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'bob@example.com', password: testPassword }),
        });
        const bob = (bobLogin.headers.get('set-cookie') ?? '').split(';')[0];
        expect(bob).toMatch(/^session=/);
        const forged = { 'remote-user': 'alice', 'remote-groups': 'sre', 'remote-email': 'alice@example.com' };

        const json = await get(port, 'app.example.test', '/api/data', { accept: 'application/json', ...forged });
        expect(json.status).toBe(401);
        expect(json.body).not.toContain('"identity"');
        expect((await get(port, 'ops.example.test', '/', { cookie: bob, accept: 'text/html', ...forged })).status).toBe(
          403,
        );
        expect((await get(port, 'other.example.test', '/', { cookie: bob, accept: 'text/html' })).status).toBe(403);
        const asBob = await get(port, 'app.example.test', '/', { cookie: bob, ...forged });
        expect(asBob.status).toBe(200);
        const { 'remote-groups': groups, ...identity } = echoed(asBob.body).identity;
        expect(identity).toEqual({
          'remote-user': 'bob',
          'remote-email': 'bob@example.com',
          'remote-name': 'bob@example.com',
        });
        // No groups: an empty header (Caddy) or none (nginx drops a header set to ""), never the forged one.
        expect(groups ?? '').toBe('');
        const forgedCookie = await get(port, 'app.example.test', '/', { cookie: bob.slice(0, -12), ...forged });
        expect(forgedCookie.status).toBe(401);
      });

      it('never passes a request whose URI carries CR, LF or NUL, or whose Host is 10,000 characters long', async () => {
        const { port } = proxy();
        for (const line of [
          `GET /a%0d%0aRemote-User:%20alice HTTP/1.1\r\nHost: app.example.test:${port}\r\nConnection: close\r\n\r\n`,
          `GET /a%00b HTTP/1.1\r\nHost: app.example.test:${port}\r\nConnection: close\r\n\r\n`,
          `GET /a\u0000b HTTP/1.1\r\nHost: app.example.test:${port}\r\nConnection: close\r\n\r\n`,
          `GET /a\rb HTTP/1.1\r\nHost: app.example.test:${port}\r\nConnection: close\r\n\r\n`,
          `GET / HTTP/1.1\r\nHost: ${'a'.repeat(10_000)}.example.test\r\nConnection: close\r\n\r\n`,
        ]) {
          const answer = await rawAnswer(port, line);
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
          // Refused by the proxy or by idp, or (Caddy, for a host no site names) an empty answer: never the app, never a 5xx.
          expect(answer, JSON.stringify(line.slice(0, 40))).not.toContain('id="echo"');
          expect(status, JSON.stringify(line.slice(0, 40))).toBeLessThan(500);
        }
      });
    });
  }

  it('ends access at the next request when another process commits the change (as idp apply or a second instance would)', async () => {
    const { port } = proxies.find((p) => p.name === 'nginx')!;
    const login = await fetch(`${idpUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password: testPassword }),
    });
    const alice = (login.headers.get('set-cookie') ?? '').split(';')[0];
    // Warm: the verdict is kept and, on SQLite, the generation is known with nothing committed since.
    for (let i = 0; i < 3; i++) expect((await get(port, 'ops.example.test', '/', { cookie: alice })).status).toBe(200);
    const sql = "DELETE FROM group_members WHERE group_id = 'sre' AND sub = 'alice'";
    const script =
      kind === 'sqlite'
        ? `const s = require('sqlite3'); const db = new s.Database(process.argv[1]); db.run(process.argv[2], (e) => { if (e) throw e; db.close(); });`
        : `const { Client } = require('pg'); const c = new Client({ connectionString: process.argv[1] }); c.connect().then(() => c.query(process.argv[2])).then(() => c.end());`;
    const { config } = t.database;
    const writer = await execa(
      process.execPath,
      ['-e', script, config.client === 'sqlite' ? config.filename : config.url!, sql],
      {
        cwd: repoRoot,
        reject: false,
      },
    );
    try {
      expect(writer.exitCode, writer.stderr).toBe(0);
      expect((await get(port, 'ops.example.test', '/', { cookie: alice })).status).toBe(403);
    } finally {
      await joinGroup(t.database.storage, 'sre', ['alice']);
    }
  });
});
