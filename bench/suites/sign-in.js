// @ts-check
/**
 * Sign-in throughput (issue 12): what a person waits for, each flow timed
 * whole (bench/suites/sign-in/measure-flows.js), against the real server
 * (dist/) in its own process (bench/suites/sign-in/sign-in-server.js):
 *
 * - password alone: POST /api/auth/login;
 * - password + TOTP: POST /api/auth/login (pending session), then
 *   POST /api/auth/login/totp with the current code (otplib, as a phone);
 * - passkey: POST /api/auth/passkey/options, then /api/auth/passkey/verify
 *   with an assertion signed here (passwordless: no argon2 at all).
 *
 * Password flows rotate through their users (a TOTP step is accepted once
 * per user) on 4 connections: bounded by argon2id. The passkey flow runs
 * one user per connection, 8 connections. 1 s warm-up, then 5 s. Sign-ins
 * per second and the p50/p99 of a whole sign-in; per database.
 *
 * Run: `npm run bench -- sign-in` (under a minute).
 */
import { fileURLToPath } from 'node:url';
import { authenticator } from 'otplib';
import { ARGON2_MEMORY_KIB, ARGON2_PARALLELISM, ARGON2_TIME_COST } from '../../dist/accounts/passwords.js';
import { startServerChild } from '../lib/server-child.js';
import { measureFlows } from './sign-in/measure-flows.js';
import { assertion } from './sign-in/software-passkey.js';
import {
  benchEmail,
  benchPassword,
  passkeyUserCount,
  passwordUserCount,
  totpUserCount,
} from './sign-in/sign-in-users.js';

const serverScript = fileURLToPath(new URL('./sign-in/sign-in-server.js', import.meta.url));
const PASSWORD_CONNECTIONS = 4;
const timing = { warmupS: 1, durationS: 5 };
const ARGON2 = `argon2id m=${ARGON2_MEMORY_KIB} KiB, t=${ARGON2_TIME_COST}, p=${ARGON2_PARALLELISM}`;

/**
 * @param {string} url @param {string} path @param {unknown} body @param {string} [cookie]
 * @returns {Promise<{ status: number, body: any, cookie: string | undefined }>}
 */
async function post(url, path, body, cookie) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  // The session cookie, or else the passkey challenge's (the only one /api/auth/passkey/options sets).
  const cookies = response.headers.getSetCookie();
  const set = cookies.find((c) => c.startsWith('session=')) ?? cookies.find((c) => c.startsWith('passkey_challenge='));
  return { status: response.status, body: await response.json(), cookie: set?.split(';')[0] };
}

/** @param {string} what @param {{ status: number, body: any }} answer @param {(body: any) => boolean} ok */
function expectAnswer(what, answer, ok) {
  if (answer.status !== 200 || !ok(answer.body))
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @returns {import('../lib/types.js').Case}
 */
function signInCase(kind) {
  return {
    name: kind,
    runs: 1,
    async run() {
      const server = await startServerChild(serverScript, [kind], { killAfterMs: 10_000 });
      try {
        /** @type {{ url: string, origin: string, totpSecret: string, passkeyUsers: { sub: string, credentialId: string, privateKey: string }[] }} */
        const { url, origin, totpSecret, passkeyUsers } = server.info;
        let nextPassword = 0;
        let nextTotp = 0;
        const counters = passkeyUsers.map(() => 0);

        const password = await measureFlows(
          async () => {
            const email = benchEmail('password', nextPassword++ % passwordUserCount);
            expectAnswer('login', await post(url, '/api/auth/login', { email, password: benchPassword }), (b) =>
              Boolean(b.user),
            );
          },
          { connections: PASSWORD_CONNECTIONS, ...timing },
        );

        const totp = await measureFlows(
          async () => {
            const email = benchEmail('totp', nextTotp++ % totpUserCount);
            const login = await post(url, '/api/auth/login', { email, password: benchPassword });
            expectAnswer('login', login, (b) => b.status === 'second_factor_required');
            const code = authenticator.generate(totpSecret);
            expectAnswer('login/totp', await post(url, '/api/auth/login/totp', { code }, login.cookie), (b) =>
              Boolean(b.user),
            );
          },
          { connections: PASSWORD_CONNECTIONS, ...timing },
        );

        const passkey = await measureFlows(
          async (worker) => {
            const options = await post(url, '/api/auth/passkey/options', {});
            expectAnswer('passkey/options', options, (b) => typeof b.challenge === 'string');
            const response = assertion(passkeyUsers[worker], options.body, origin, ++counters[worker]);
            // The challenge answers only with the cookie the options set, as in the browser that asked.
            expectAnswer(
              'passkey/verify',
              await post(url, '/api/auth/passkey/verify', { response }, options.cookie),
              (b) => Boolean(b.user),
            );
          },
          { connections: passkeyUserCount, ...timing },
        );

        /** @type {import('../lib/types.js').Measurement[]} */
        const rows = [];
        for (const [label, r] of /** @type {const} */ ([
          [`password alone (${ARGON2}, ${PASSWORD_CONNECTIONS} connections)`, password],
          [`password + TOTP (${PASSWORD_CONNECTIONS} connections)`, totp],
          [`passkey assertion, passwordless (${passkeyUserCount} connections)`, passkey],
        ])) {
          const name = `${kind} ${label}`;
          const note = r.failed > 0 ? `${r.failed} failed: ${r.firstError}` : undefined;
          rows.push(
            { name, metric: 'sign-ins/s', value: r.perSecond, unit: 'req/s', note },
            { name, metric: 'p50', value: r.p50, unit: 'ms' },
            { name, metric: 'p99', value: r.p99, unit: 'ms' },
          );
        }
        return rows;
      } finally {
        await server.stop();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: 'sign-in throughput: password alone, password + TOTP, passkey (sign-ins/s, p50/p99 of a whole sign-in)',
  cases: [signInCase('sqlite'), signInCase('postgres')],
};
