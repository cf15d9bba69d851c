// @ts-check
/**
 * The admin API over 100,000 database users, and login throughput (issue 3).
 * One case per database, each in a fresh process and run once (seeding
 * dominates its time): a server child (bench/suites/admin/admin-server.js)
 * seeds 100,000 users plus one admin and serves; this process signs the
 * admin in and loads the server with autocannon (1 s warm-up, then 5 s):
 *
 * - GET /api/admin/users: the first page, a deep page (page 2500 of 20,
 *   OFFSET 49,980), a narrow search (`query=user-042424`: one match) and a
 *   broad one (`query=example`: every user), each with its total count;
 *   1 connection, i.e. back-to-back requests: the latency of one request,
 *   not of a queue (an admin screen, not a hot path). Target p99 < 50 ms.
 * - POST /api/auth/login with the right password for a rotating pool of
 *   users, 4 connections: bounded by argon2id verification; the row names
 *   the argon2 parameters (src/accounts/passwords.ts). The login rate limit
 *   is raised in the bench config so that the limiter cannot answer.
 *
 * Run once: `npm run bench -- admin` (about a minute).
 */
import { startServerChild } from '../lib/server-child.js';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ARGON2_MEMORY_KIB, ARGON2_PARALLELISM, ARGON2_TIME_COST } from '../../dist/accounts/passwords.js';
import { adminEmail, benchPassword, benchUserCount, benchUserEmail } from './admin/bench-users.js';

const serverScript = fileURLToPath(new URL('./admin/admin-server.js', import.meta.url));
const WARMUP_S = 1;
const DURATION_S = 5;
const LIST_CONNECTIONS = 1;
const LOGIN_CONNECTIONS = 4;
const P99_TARGET_MS = 50;
const ARGON2 = `argon2id m=${ARGON2_MEMORY_KIB} KiB, t=${ARGON2_TIME_COST}, p=${ARGON2_PARALLELISM}`;

/** The console's users page (server-rendered HTML over the same service): target p99 < 100 ms. */
const CONSOLE_P99_TARGET_MS = 100;
const consoleCases = [
  ['console users page 1', ''],
  ['console users page 1000', 'page=1000'],
  ['console users q one match', 'q=user-042424'],
  ['console users q every user', 'q=example'],
];

const listCases = [
  ['list, first page', 'page=1&page_size=20'],
  ['list, page 2500 of 20', 'page=2500&page_size=20'],
  ['search query=user-042424 (1 match)', 'query=user-042424'],
  ['search query=example (all match)', 'query=example'],
];

/** @param {'sqlite' | 'postgres'} kind @returns {Promise<{ info: { url: string, seedMs: number }, stop: () => Promise<void> }>} */
function startServer(kind) {
  // Seeding 100,000 users leaves a large database to close: give it time.
  return startServerChild(serverScript, [kind], { killAfterMs: 10_000 });
}

/** @param {string} url @param {string} email @returns {Promise<string>} the `session=…` cookie pair */
async function signIn(url, email) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password: benchPassword }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('session='));
  if (response.status !== 200 || !cookie)
    throw new Error(`admin login answered ${response.status}: ${await response.text()}`);
  return cookie.split(';')[0];
}

/**
 * @param {autocannon.Options} options
 * @returns {Promise<{ rps: number, p50: number, p99: number, failed: number }>}
 */
async function load(options) {
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** @param {string} url @param {string} cookie @param {string} search @param {number} expectedTotal */
async function checkList(url, cookie, search, expectedTotal) {
  const response = await fetch(`${url}/api/admin/users?${search}`, { headers: { cookie } });
  const body = await response.json();
  if (response.status !== 200 || body.pagination.total !== expectedTotal) {
    throw new Error(
      `GET /api/admin/users?${search} answered ${response.status} with total ${body.pagination?.total}, expected ${expectedTotal}`,
    );
  }
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @returns {import('../lib/types.js').Case}
 */
function adminCase(kind) {
  return {
    name: kind,
    runs: 1,
    async run() {
      const server = await startServer(kind);
      try {
        const { url, seedMs } = server.info;
        const out = [
          {
            name: `${kind} seed`,
            metric: `${benchUserCount.toLocaleString('en')} users (batched insert${kind === 'postgres' ? ' + VACUUM ANALYZE' : ''})`,
            value: seedMs,
            unit: 'ms',
          },
        ];
        const cookie = await signIn(url, adminEmail);
        await checkList(url, cookie, 'query=user-042424', 1);
        await checkList(url, cookie, 'query=example', benchUserCount + 1);
        for (const [label, search] of listCases) {
          const r = await load({
            url: `${url}/api/admin/users?${search}`,
            connections: LIST_CONNECTIONS,
            headers: { cookie },
          });
          const name = `${kind} ${label}`;
          const note = r.failed > 0 ? `${r.failed} failed responses` : undefined;
          out.push(
            { name, metric: 'p50', value: r.p50, unit: 'ms', note },
            { name, metric: 'p99', value: r.p99, unit: 'ms', target: { max: P99_TARGET_MS } },
          );
        }
        const consolePage = await fetch(`${url}/admin/users?q=user-042424`, { headers: { cookie } });
        if (consolePage.status !== 200 || !(await consolePage.text()).includes('user-042424'))
          throw new Error(`the console's users page answered ${consolePage.status}`);
        for (const [label, search] of consoleCases) {
          const r = await load({
            url: `${url}/admin/users?${search}`,
            connections: LIST_CONNECTIONS,
            headers: { cookie },
          });
          const name = `${kind} ${label}`;
          const note = r.failed > 0 ? `${r.failed} failed responses` : undefined;
          out.push(
            { name, metric: 'p50', value: r.p50, unit: 'ms', note },
            { name, metric: 'p99', value: r.p99, unit: 'ms', target: { max: CONSOLE_P99_TARGET_MS } },
          );
        }
        let next = 0;
        const login = await load({
          url: `${url}/api/auth/login`,
          method: 'POST',
          connections: LOGIN_CONNECTIONS,
          headers: { 'content-type': 'application/json', origin: url },
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify({ email: benchUserEmail(next++ % benchUserCount), password: benchPassword }),
              }),
            },
          ],
        });
        const name = `${kind} login (${ARGON2}, ${LOGIN_CONNECTIONS} connections)`;
        out.push(
          {
            name,
            metric: 'logins/s',
            value: login.rps,
            unit: 'req/s',
            note: login.failed > 0 ? `${login.failed} failed responses` : undefined,
          },
          { name, metric: 'p50', value: login.p50, unit: 'ms' },
          { name, metric: 'p99', value: login.p99, unit: 'ms' },
        );
        return out;
      } finally {
        await server.stop();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `admin list and search over ${benchUserCount.toLocaleString('en')} users (p50/p99, target p99 < ${P99_TARGET_MS} ms) and login throughput (${ARGON2})`,
  cases: [adminCase('sqlite'), adminCase('postgres')],
};
