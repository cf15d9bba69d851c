import { readdir } from 'node:fs/promises';
import type { RequestRoute } from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/http/routes.js';
import type { RouteAuth, RouteDefinition, RouteSpec } from '../../src/http/route-definition.js';
import {
  pendingSessionStrategy,
  sessionOrPendingStrategy,
  sessionStrategy,
} from '../../src/http/auth/cookie-session-auth.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';

/**
 * CONTRIBUTING.md, "How the code is written", 2: src/http/routes.ts is the one route table. This suite prints
 * it, and fails when the server serves a route the table does not list (or
 * with another auth mode), or when a row is missing from the OpenAPI
 * document without a reason written here.
 */

/** Served, deliberately left out of the OpenAPI document, and why. */
const undocumented: Record<string, string> = {
  'GET /api/docs': 'the reference UI page that renders the document',
  'GET /api/docs/json': 'the document itself',
  'GET /api/docs/init.js': 'a script of the reference UI',
  'GET /api/docs/theme.css': 'the look of the reference UI (brand, dark variant)',
  'GET /api/docs/assets/{file}': 'files of the reference UI',
  'GET /openapi.json': 'the document itself, as built by npm run build',
  'GET /': 'a page of the built-in UI (src/web/pages)',
  'GET /login': 'a page of the built-in UI (src/web/pages)',
  'GET /login/second-factor': 'a page of the built-in UI (src/web/pages)',
  'GET /select-account': 'a page of the built-in UI (src/web/pages)',
  'GET /register': 'a page of the built-in UI (src/web/pages)',
  'GET /verify-email': 'a page of the built-in UI (src/web/pages)',
  'GET /forgot-password': 'a page of the built-in UI (src/web/pages)',
  'GET /reset-password': 'a page of the built-in UI (src/web/pages)',
  'GET /terms': 'a page of the built-in UI (src/web/pages)',
  'GET /consent': 'a page of the built-in UI (src/web/pages)',
  'GET /access-denied': 'a page of the built-in UI (src/web/pages)',
  'GET /account': 'a page of the built-in UI (src/web/pages)',
  'GET /device': 'a page of the built-in UI (src/web/pages)',
  'GET /device/done': 'a page of the built-in UI (src/web/pages)',
  'GET /ui/theme.css': "the built-in pages' accent stylesheet (branding.primary_color)",
  'GET /favicon.ico': "the built-in pages' icon (branding.primary_color)",
  'GET /ui/authenticator-app-qr.svg':
    "the built-in pages' QR code of a pending authenticator-app enrolment (the API answers its otpauth_url)",
  'GET /ui/vendor/webauthn/{path*}': 'the @simplewebauthn/browser modules of the built-in pages',
  'GET /ui/bundle/{file}': "the built-in pages' scripts as the build bundled them",
  'GET /{path*}': 'the web UI catch-all: pages and files, not API operations',
  'POST /{path*}': 'the web UI catch-all, forwarded to a proxied front end',
  'PUT /{path*}': 'the web UI catch-all, forwarded to a proxied front end',
  'PATCH /{path*}': 'the web UI catch-all, forwarded to a proxied front end',
  'DELETE /{path*}': 'the web UI catch-all, forwarded to a proxied front end',
};

interface Row {
  method: string;
  path: string;
  auth: string;
}

/** The admin console's pages and forms (/admin, /admin/…, /setup; src/http/routes/console-*.ts, setup-routes.ts): pages, not API operations. */
function consolePageReason(row: Row): string | undefined {
  if (row.path === '/setup') return "the first admin's setup page and form";
  return row.path === '/admin' || row.path.startsWith('/admin/') ? 'a page of the admin console' : undefined;
}

type OpenApiPaths = Record<string, Record<string, unknown>>;

const keyOf = (row: Pick<Row, 'method' | 'path'>) => `${row.method} ${row.path}`;

/** The auth mode (RouteAuth) that hapi's settings of a served route amount to. */
function authModeOf(auth: RequestRoute['settings']['auth']): string {
  // hapi keeps `auth: false` as false at run time, although its type says AuthSettings | undefined.
  if (!auth) return 'none';
  // After hapi's validation, an access rule's scope is { selection: [...] }.
  const {
    strategies = [],
    mode,
    access = [],
  } = auth as { strategies?: string[]; mode?: string; access?: { scope?: { selection?: string[] } }[] };
  const scopes = access.flatMap((rule) => rule.scope?.selection ?? []);
  const modes: Record<string, RouteAuth> = {
    [`${sessionStrategy} required `]: 'session',
    [`${sessionStrategy} try `]: 'optional-session',
    [`${sessionStrategy} required admin`]: 'admin',
    [`${pendingSessionStrategy} required `]: 'pending-session',
    [`${sessionOrPendingStrategy} required `]: 'session-or-pending',
  };
  const settings = `${strategies.join(',')} ${mode} ${scopes.join(',')}`;
  return modes[settings] ?? `hapi auth "${settings}"`;
}

/** What a hapi server serves, as rows: read back from server.table(), not from the route table. */
function servedRows(table: RequestRoute[]): Row[] {
  return table.map((served) => ({
    method: served.method.toUpperCase(),
    path: served.path,
    auth: authModeOf(served.settings.auth),
  }));
}

/** Every way the served routes and the table disagree, one line each; empty when they agree. */
function checkServedAgainstTable(served: Row[], table: Row[]): string[] {
  const listed = new Map(table.map((row) => [keyOf(row), row]));
  const servedKeys = new Set(served.map(keyOf));
  const problems: string[] = [];
  for (const row of served) {
    const entry = listed.get(keyOf(row));
    if (!entry) problems.push(`served but not in the route table: ${keyOf(row)}`);
    else if (entry.auth !== row.auth)
      problems.push(`${keyOf(row)} is served with auth ${row.auth}, the table says ${entry.auth}`);
  }
  for (const row of table)
    if (!servedKeys.has(keyOf(row))) problems.push(`in the route table but not served: ${keyOf(row)}`);
  return problems;
}

/** Every row is in the OpenAPI document or listed in `undocumented`, never both; every operation is a row. */
function checkTableAgainstDocument(table: Row[], paths: OpenApiPaths, left: Record<string, string>): string[] {
  const inDocument = (row: Row) => paths[row.path]?.[row.method.toLowerCase()] !== undefined;
  const problems: string[] = [];
  for (const row of table) {
    const reason = left[keyOf(row)] ?? consolePageReason(row);
    if (reason === undefined && !inDocument(row)) problems.push(`missing from the OpenAPI document: ${keyOf(row)}`);
    if (reason !== undefined && inDocument(row))
      problems.push(`listed as undocumented (${reason}) but in the OpenAPI document: ${keyOf(row)}`);
  }
  const rows = new Set(table.map(keyOf));
  for (const [path, item] of Object.entries(paths)) {
    for (const method of Object.keys(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (!rows.has(key)) problems.push(`in the OpenAPI document but not in the route table: ${key}`);
    }
  }
  return problems;
}

/** The export of src/http/routes/ each row runs: the spec whose every property the row carries (the most specific one). */
async function specNames(): Promise<[string, RouteSpec][]> {
  const directory = new URL('../../src/http/routes/', import.meta.url);
  const files = (await readdir(directory)).filter((file) => file.endsWith('.ts'));
  const modules = await Promise.all(
    files.map((file) => import(new URL(file, directory).href) as Promise<Record<string, unknown>>),
  );
  return modules.flatMap((exports) =>
    Object.entries(exports).filter(
      (entry): entry is [string, RouteSpec] => typeof (entry[1] as RouteSpec | null)?.handler === 'function',
    ),
  );
}

function handlerName(row: RouteDefinition, specs: [string, RouteSpec][]): string {
  const fits = specs.filter(([, spec]) =>
    Object.entries(spec).every(([key, value]) => row[key as keyof RouteDefinition] === value),
  );
  fits.sort(([, a], [, b]) => Object.keys(b).length - Object.keys(a).length);
  // docsJsonRoute is a factory (it closes over the live document), so no export equals its spec.
  return fits[0]?.[0] ?? `(${row.summary})`;
}

function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

describe('the route table (src/http/routes.ts)', () => {
  let t: TestApp;
  let table: RouteDefinition[];
  let served: Row[];
  let paths: OpenApiPaths;

  beforeAll(async () => {
    // openapi.enabled is true in the test config, so the reference routes are served too.
    t = await createTestApp('sqlite');
    table = routeTable(t.config);
    served = servedRows(t.app.server.table());
    paths = (await inject(t, 'GET', '/api/docs/json')).json().paths;
  });
  afterAll(() => t.destroy());

  it('prints METHOD path auth handler for every row', async () => {
    const specs = await specNames();
    const text = formatTable([
      ['METHOD', 'PATH', 'AUTH', 'HANDLER'],
      ...table.map((row) => [row.method, row.path, row.auth, handlerName(row, specs)]),
    ]);
    console.log(`${text}\n`);
    expect(text).toMatch(/^POST +\/api\/auth\/login +none +loginRoute$/m);
    expect(text).toMatch(/^DELETE +\/api\/admin\/users\/\{sub\} +admin +adminDeleteUserRoute$/m);
    expect(text).toMatch(/^POST +\/\{path\*\} +none +frontendProxyRoute$/m);
  });

  it('is exactly what the server serves, with the same auth modes', () => {
    expect(checkServedAgainstTable(served, table)).toEqual([]);
  });

  it('is in the OpenAPI document, except the routes listed above with their reason', () => {
    expect(checkTableAgainstDocument(table, paths, undocumented)).toEqual([]);
  });

  describe('the checks report', () => {
    const login = 'POST /api/auth/login';
    const without = (rows: Row[], key: string) => rows.filter((row) => keyOf(row) !== key);

    it('a route served but missing from the table', () => {
      expect(checkServedAgainstTable(served, without(table, login))).toEqual([
        `served but not in the route table: ${login}`,
      ]);
    });

    it('a row the server does not serve', () => {
      expect(checkServedAgainstTable(without(served, login), table)).toEqual([
        `in the route table but not served: ${login}`,
      ]);
    });

    it('a route served with another auth mode than its row', () => {
      const rows = table.map((row) => (keyOf(row) === login ? { ...row, auth: 'session' } : row));
      expect(checkServedAgainstTable(served, rows)).toEqual([
        `${login} is served with auth none, the table says session`,
      ]);
    });

    it('a row missing from the OpenAPI document', () => {
      const { post: _dropped, ...rest } = paths['/api/auth/login'];
      expect(checkTableAgainstDocument(table, { ...paths, '/api/auth/login': rest }, undocumented)).toEqual([
        `missing from the OpenAPI document: ${login}`,
      ]);
    });

    it('an operation of the OpenAPI document that no row serves', () => {
      expect(checkTableAgainstDocument(without(table, login), paths, undocumented)).toEqual([
        `in the OpenAPI document but not in the route table: ${login}`,
      ]);
    });

    it('a route left out of the document without a reason', () => {
      const { 'GET /openapi.json': _reason, ...rest } = undocumented;
      expect(checkTableAgainstDocument(table, paths, rest)).toEqual([
        'missing from the OpenAPI document: GET /openapi.json',
      ]);
    });
  });
});
