// @ts-check
/**
 * What the audit event log costs a sign-in (issue #14): POST /api/auth/login
 * (argon2id verification, rate-limit counters, the session, and one
 * sign_in.succeeded event) against two servers on the same database kind,
 * one with the event log and its peer without it (the one insert taken
 * out; bench/suites/accounts/accounts-server.js events-off). Interleaved
 * rounds at 4 connections; requests/s and p99 of each, and the ratio
 * (with / without), whose target is at least 0.9 (under 10% cost).
 *
 * Run: `npm run bench -- events` (about a minute).
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServerChild } from '../lib/server-child.js';
import { seededEmail, seededUsers } from './accounts/bench-accounts.js';

const serverScript = fileURLToPath(new URL('./accounts/accounts-server.js', import.meta.url));
const ROUNDS = 3;
const ROUND_S = 5;
const CONNECTIONS = 4;

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @param {string} url */
async function signIns(url) {
  let next = 0;
  const options = {
    url: `${url}/api/auth/login`,
    method: /** @type {const} */ ('POST'),
    connections: CONNECTIONS,
    headers: { 'content-type': 'application/json', origin: url },
    requests: [
      {
        setupRequest: (/** @type {any} */ request) => ({
          ...request,
          body: JSON.stringify({ email: seededEmail(next++ % seededUsers), password: 'bench password' }),
        }),
      },
    ],
  };
  const result = await autocannon({ ...options, duration: ROUND_S });
  const failed = Object.entries(result.statusCodeStats ?? {}).reduce(
    (n, [code, stat]) => (Number(code) === 200 ? n : n + stat.count),
    0,
  );
  return { rps: result.requests.average, p99: result.latency.p99, failed: failed + result.errors + result.timeouts };
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @returns {import('../lib/types.js').Case}
 */
function eventsCase(kind) {
  return {
    name: kind,
    runs: 1,
    async run() {
      const withLog = await startServerChild(serverScript, [kind], { killAfterMs: 10_000 });
      const withoutLog = await startServerChild(serverScript, [kind, 'events-off'], { killAfterMs: 10_000 });
      try {
        /** @type {{ on: number[], off: number[], onP99: number[], offP99: number[], ratios: number[], failed: number }} */
        const runs = { on: [], off: [], onP99: [], offP99: [], ratios: [], failed: 0 };
        await signIns(withLog.info.url);
        await signIns(withoutLog.info.url);
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate which goes first, so that a drift of the machine's load weighs on both.
          const order = round % 2 === 0 ? [withLog, withoutLog] : [withoutLog, withLog];
          /** @type {Map<unknown, { rps: number, p99: number, failed: number }>} */
          const results = new Map();
          for (const server of order) results.set(server, await signIns(server.info.url));
          const on = /** @type {{ rps: number, p99: number, failed: number }} */ (results.get(withLog));
          const off = /** @type {{ rps: number, p99: number, failed: number }} */ (results.get(withoutLog));
          runs.on.push(on.rps);
          runs.off.push(off.rps);
          runs.onP99.push(on.p99);
          runs.offP99.push(off.p99);
          runs.ratios.push(on.rps / off.rps);
          runs.failed += on.failed + off.failed;
        }
        const name = `${kind} sign-in, ${CONNECTIONS} connections`;
        const note = runs.failed > 0 ? `${runs.failed} failed responses` : undefined;
        return [
          { name: `${name}, event log on`, metric: 'requests/s', value: median(runs.on), unit: 'req/s', note },
          { name: `${name}, event log on`, metric: 'p99', value: median(runs.onP99), unit: 'ms' },
          { name: `${name}, event log off (peer)`, metric: 'requests/s', value: median(runs.off), unit: 'req/s' },
          { name: `${name}, event log off (peer)`, metric: 'p99', value: median(runs.offP99), unit: 'ms' },
          {
            name: `${name}: on / off`,
            metric: 'ratio',
            value: Number(median(runs.ratios).toFixed(3)),
            unit: '×',
            target: { min: 0.9 },
          },
        ];
      } finally {
        await withLog.stop();
        await withoutLog.stop();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `the audit event log's cost to a password sign-in: ${ROUNDS} interleaved ${ROUND_S} s rounds at ${CONNECTIONS} connections, with the log and without it (requests/s, p99, ratio)`,
  cases: [eventsCase('sqlite'), eventsCase('postgres')],
};
