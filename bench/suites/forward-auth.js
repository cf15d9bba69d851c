// @ts-check
/**
 * Forward authentication under load (issue 25, docs/forward-auth.md):
 * autocannon, 50 connections, GET /api/auth-request with a valid session
 * cookie and the X-Original-URL of an app the user may use, against idp on
 * SQLite and on PostgreSQL and a bare hapi GET route (the ceiling), and a
 * plain node:http server (the floor of the machine, no target: its p99 shows
 * what the load generator sharing the two cores costs any server), all in
 * child processes, interleaved: a 2 s warm-up each, then 3 rounds of
 * BENCH_FORWARD_AUTH_SECONDS (default 10). Targets: ≥ 0.8× the bare hapi
 * route, p99 < 5 ms. Then, on each idp, one more run while the server
 * counts the statements its database runs: the statements per request
 * (the only one expected is the cache generation read, shared by the
 * requests of one event-loop turn on PostgreSQL, and on SQLite sent only
 * when the WAL index shows a commit since the last one).
 *
 * `npm run bench -- forward-auth`, about three minutes; BENCH_FORWARD_AUTH_SECONDS=1 for a quick try.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServerChild } from '../lib/server-child.js';
import { interleaved } from './token/interleaved.js';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'forward-auth');
const seconds = Number(process.env.BENCH_FORWARD_AUTH_SECONDS ?? 10);
if (!(seconds > 0))
  throw new Error(
    `BENCH_FORWARD_AUTH_SECONDS must be a positive number of seconds, not ${process.env.BENCH_FORWARD_AUTH_SECONDS}`,
  );
/** @type {import('./token/interleaved.js').LoadSettings} */
const settings = { connections: 50, warmupS: 2, durationS: seconds, rounds: 3 };

/** @param {string} url @param {string} cookie @returns {autocannon.Options} */
const authRequest = (url, cookie) => ({
  url: `${url}/api/auth-request`,
  headers: { cookie, 'x-original-url': 'https://app.example.com/dashboard?panel=1' },
});

/**
 * @param {string} name
 * @param {import('./token/interleaved.js').LoadResult} r
 * @param {number} [p99]
 */
function rows(name, r, p99) {
  const note = r.failed > 0 ? `${r.failed} failed responses` : undefined;
  return [
    { name, metric: 'req/s', value: Math.round(r.rps), unit: 'req/s', note },
    { name, metric: 'p50', value: r.p50, unit: 'ms' },
    { name, metric: 'p99', value: r.p99, unit: 'ms', target: p99 ? { max: p99 } : null },
  ];
}

/**
 * Statements per 2xx answer over one run of `seconds`, and the statements by text.
 * @param {{ info: any, request: (message: any) => Promise<any> }} child
 */
async function statementsPerRequest(child) {
  await child.request({ statements: 'reset' });
  const result = await autocannon({
    connections: settings.connections,
    duration: seconds,
    ...authRequest(child.info.url, child.info.cookie),
  });
  const { statements } = await child.request({ statements: 'read' });
  const total = Object.values(/** @type {Record<string, number>} */ (statements)).reduce((n, c) => n + c, 0);
  const texts = Object.keys(statements).map((sql) => sql.slice(0, 60));
  return {
    perRequest: total / Math.max(1, result['2xx']),
    note: `${total} statements / ${result['2xx']} requests: ${texts.join(' | ') || 'none'}`,
  };
}

async function run() {
  const specs = /** @type {[string, string[]][]} */ ([
    ['idp-server.js', ['sqlite']],
    ['idp-server.js', ['postgres']],
    ['bare-hapi-server.js', []],
    ['bare-node-server.js', []],
  ]);
  const started = await Promise.all(
    specs.map(([script, args]) => startServerChild(path.join(here, script), args, { killAfterMs: 10_000 })),
  );
  try {
    const [sqlite, postgres, hapi, node] = started;
    for (const idp of [sqlite, postgres]) {
      const check = await fetch(`${idp.info.url}/api/auth-request`, {
        headers: authRequest(idp.info.url, idp.info.cookie).headers,
      });
      if (check.status !== 200 || check.headers.get('remote-user') !== 'bench-user')
        throw new Error(`the bench session is not let through: ${check.status}`);
    }
    const { summary, ratio } = await interleaved(
      [
        { name: 'idp-sqlite', options: authRequest(sqlite.info.url, sqlite.info.cookie) },
        { name: 'idp-postgres', options: authRequest(postgres.info.url, postgres.info.cookie) },
        { name: 'hapi', options: authRequest(hapi.info.url, 'session=x') },
        { name: 'node', options: authRequest(node.info.url, 'session=x') },
      ],
      settings,
    );
    const out = [
      ...rows('auth-request idp-sqlite', summary('idp-sqlite'), 5),
      ...rows('auth-request idp-postgres', summary('idp-postgres'), 5),
      ...rows('bare hapi GET route (ceiling)', summary('hapi')),
      ...rows('node:http, no framework (floor)', summary('node')),
      {
        name: 'auth-request idp-sqlite / bare hapi',
        metric: 'ratio',
        value: Number(ratio('idp-sqlite', 'hapi').toFixed(2)),
        unit: 'x',
        target: { min: 0.8 },
      },
      {
        name: 'auth-request idp-postgres / bare hapi',
        metric: 'ratio',
        value: Number(ratio('idp-postgres', 'hapi').toFixed(2)),
        unit: 'x',
        target: { min: 0.8 },
      },
    ];
    for (const [name, child] of /** @type {const} */ ([
      ['idp-sqlite', sqlite],
      ['idp-postgres', postgres],
    ])) {
      const counted = await statementsPerRequest(child);
      out.push({
        name: `auth-request ${name} statements`,
        metric: 'per request',
        value: Number(counted.perRequest.toFixed(3)),
        unit: '',
        target: null,
        note: counted.note,
      });
    }
    return out;
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

export default {
  description:
    'GET /api/auth-request with a valid session on SQLite and PostgreSQL vs a bare hapi GET route, 50 connections, and the statements per request',
  cases: [{ name: 'auth-request', runs: 1, run }],
};
