// @ts-check
/**
 * Background jobs on PostgreSQL (issue 5). Each case is one run in a fresh
 * process; the harness repeats it 3 times and reports medians.
 *
 * - 1 worker / 3 workers: 2,000 `noop` jobs (no delay) are put in the queue,
 *   then 1 or 3 worker processes (the real scheduler from dist/, database
 *   mode, 4 jobs at once each; bench/suites/jobs/worker.js) are started; the
 *   time until every job has succeeded gives jobs/s. Each job is a claim
 *   statement and a conditional `succeeded` update.
 * - claim latency: 3 claimers on separate connections take 600 jobs with
 *   BackgroundJobRepository.claim (one UPDATE … FOR UPDATE SKIP LOCKED);
 *   p50 and p99 of one claim.
 *
 * No targets: the figures are for comparison between runs on one machine.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectDatabase } from '../../dist/storage/knex/connect.js';
import { knexBackgroundJobRepository as jobs } from '../../dist/storage/knex/background-jobs.js';
import { createBenchDatabase } from '../lib/bench-database.js';

const workerScript = fileURLToPath(new URL('./jobs/worker.js', import.meta.url));
const JOBS = 2000;
const CLAIMS = 600;

/**
 * @param {number} workerCount
 * @returns {import('../lib/types.js').Case}
 */
function throughputCase(workerCount) {
  const name = `postgres, ${workerCount} worker${workerCount === 1 ? '' : 's'}`;
  return {
    name,
    async run() {
      const database = await createBenchDatabase('postgres');
      const workers = [];
      try {
        await enqueue(database.db, JOBS);
        for (let i = 0; i < workerCount; i += 1) workers.push(spawnWorker(database.config.url ?? '', `bench-${i}`));
        await Promise.all(workers.map((w) => w.ready));
        const started = performance.now();
        for (;;) {
          const counts = await jobs.countByState(database.db);
          if (counts.succeeded === JOBS) break;
          if (counts.failed > 0) throw new Error(`${counts.failed} benchmark jobs failed`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const seconds = (performance.now() - started) / 1000;
        return [{ name, metric: `throughput (${JOBS} noop jobs)`, value: JOBS / seconds, unit: 'jobs/s' }];
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await database.destroy();
      }
    },
  };
}

/** @type {import('../lib/types.js').Case} */
const claimLatencyCase = {
  name: 'postgres, claim',
  async run() {
    const database = await createBenchDatabase('postgres');
    const claimers = [database.db, connectDatabase(database.config), connectDatabase(database.config)];
    /** @type {number[]} */
    const samples = [];
    try {
      await enqueue(database.db, CLAIMS);
      await Promise.all(
        claimers.map(async (conn, n) => {
          for (;;) {
            const now = Date.now();
            const start = performance.now();
            const job = await jobs.claim(conn, {
              owner: `claimer-${n}`,
              now,
              leaseExpiresAt: now + 60_000,
              kinds: ['noop'],
            });
            if (!job) return;
            samples.push(performance.now() - start);
          }
        }),
      );
    } finally {
      await Promise.all(claimers.slice(1).map((c) => c.destroy()));
      await database.destroy();
    }
    if (samples.length !== CLAIMS) throw new Error(`claimed ${samples.length} of ${CLAIMS} jobs`);
    return [
      {
        name: 'postgres, claim',
        metric: 'claim latency p50 (3 concurrent claimers)',
        value: percentile(samples, 50),
        unit: 'ms',
      },
      {
        name: 'postgres, claim',
        metric: 'claim latency p99 (3 concurrent claimers)',
        value: percentile(samples, 99),
        unit: 'ms',
      },
    ];
  },
};

/**
 * @param {import('knex').Knex} db
 * @param {number} count
 */
async function enqueue(db, count) {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    kind: 'noop',
    payload: '{}',
    state: 'pending',
    attempts: 0,
    max_attempts: 3,
    run_at: now,
    created_at: now + i,
    updated_at: now,
  }));
  await db.batchInsert('background_jobs', rows, 500);
}

/**
 * @param {string} url
 * @param {string} instance
 */
function spawnWorker(url, instance) {
  const child = spawn(process.execPath, [workerScript], {
    env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_INSTANCE: instance },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve(undefined));
    child.on('exit', (code) => reject(new Error(`benchmark worker exited with ${code}`)));
  });
  return {
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * @param {number[]} values
 * @param {number} p
 */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `background jobs on PostgreSQL: throughput of ${JOBS} noop jobs with 1 and 3 worker processes, claim latency`,
  cases: [throughputCase(1), throughputCase(3), claimLatencyCase],
};
