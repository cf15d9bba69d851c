// @ts-check
/**
 * Self-service request throughput (issue 11): POST /api/auth/register
 * (argon2id-bound: every request hashes a password) and POST
 * /api/auth/password/forgot (two rate-limit upserts and one job insert,
 * for addresses of accounts and unknown ones alike), each at 4 and 50
 * connections, requests/s and p99. One case per database, run once: a
 * server child (bench/suites/accounts/accounts-server.js) with 1,000 users;
 * this process loads it with autocannon (a warm-up of one
 * answered request per connection, then 10 s). The mail
 * jobs wait in the database (the scheduler is off): SMTP is not measured.
 *
 * Run: `npm run bench -- accounts` (about a minute).
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ARGON2_MEMORY_KIB, ARGON2_PARALLELISM, ARGON2_TIME_COST } from '../../dist/accounts/passwords.js';
import { startServerChild } from '../lib/server-child.js';
import { seededEmail, seededUsers } from './accounts/bench-accounts.js';

const serverScript = fileURLToPath(new URL('./accounts/accounts-server.js', import.meta.url));
// Long enough that a request queued behind 50 argon2 hashes on a busy machine still completes inside the window.
const DURATION_S = 10;
const CONNECTIONS = [4, 50];
const ARGON2 = `argon2id m=${ARGON2_MEMORY_KIB} KiB, t=${ARGON2_TIME_COST}, p=${ARGON2_PARALLELISM}`;

/**
 * @param {autocannon.Options} options
 * @param {number} expected the status every answer must have
 * @returns {Promise<{ rps: number, p99: number, failed: number }>}
 */
async function load(options, expected) {
  // Warm up with one request per connection, all answered: a timed warm-up would leave argon2 work queued into the measurement.
  await autocannon({ ...options, amount: Number(options.connections) });
  const result = await autocannon({ ...options, duration: DURATION_S });
  const other = Object.entries(result.statusCodeStats ?? {}).reduce(
    (n, [code, stat]) => (Number(code) === expected ? n : n + stat.count),
    0,
  );
  return { rps: result.requests.average, p99: result.latency.p99, failed: other + result.errors + result.timeouts };
}

/**
 * @param {string} url
 * @param {string} path
 * @param {number} connections
 * @param {() => object} body
 * @param {number} expected
 */
function post(url, path, connections, body, expected) {
  return load(
    {
      url: `${url}${path}`,
      method: 'POST',
      connections,
      headers: { 'content-type': 'application/json', origin: url },
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }],
    },
    expected,
  );
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @returns {import('../lib/types.js').Case}
 */
function accountsCase(kind) {
  return {
    name: kind,
    runs: 1,
    async run() {
      const server = await startServerChild(serverScript, [kind], { killAfterMs: 10_000 });
      try {
        const { url } = server.info;
        /** @type {import('../lib/types.js').Measurement[]} */
        const out = [];
        const run = randomBytes(4).toString('hex');
        let next = 0;
        for (const connections of CONNECTIONS) {
          const register = await post(
            url,
            '/api/auth/register',
            connections,
            () => ({ email: `new-${run}-${next++}@example.com`, password: 'a bench password' }),
            201,
          );
          const name = `${kind} register (${ARGON2}, ${connections} connections)`;
          out.push(
            {
              name,
              metric: 'requests/s',
              value: register.rps,
              unit: 'req/s',
              note: register.failed > 0 ? `${register.failed} failed responses` : undefined,
            },
            { name, metric: 'p99', value: register.p99, unit: 'ms' },
          );
        }
        for (const connections of CONNECTIONS) {
          // Half the addresses belong to accounts, half to nobody: the same work either way.
          const forgot = await post(
            url,
            '/api/auth/password/forgot',
            connections,
            () => ({ email: next++ % 2 === 0 ? seededEmail(next % seededUsers) : `ghost-${next}@example.com` }),
            202,
          );
          const name = `${kind} password forgot (${connections} connections)`;
          out.push(
            {
              name,
              metric: 'requests/s',
              value: forgot.rps,
              unit: 'req/s',
              note: forgot.failed > 0 ? `${forgot.failed} failed responses` : undefined,
            },
            { name, metric: 'p99', value: forgot.p99, unit: 'ms' },
          );
        }
        return out;
      } finally {
        await server.stop();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `registration (${ARGON2}) and password-forgot request throughput at ${CONNECTIONS.join(' and ')} connections (requests/s, p99)`,
  cases: [accountsCase('sqlite'), accountsCase('postgres')],
};
