// Background jobs on PostgreSQL (issue 5): throughput of `noop` jobs with 1
// and 3 worker processes (database mode, 4 jobs at once per process), and
// the latency of one claim statement with 3 claimers competing. Medians of
// several runs. Needs the build (dist/) and PostgreSQL
// (BENCH_PG_URL, default postgres://root@127.0.0.1:5432/postgres).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { connectDatabase } from '../../dist/storage/knex/connect.js';
import { migrateUp } from '../../dist/storage/knex/migrate.js';
import { knexBackgroundJobRepository as jobs } from '../../dist/storage/knex/background-jobs.js';

const adminUrl = process.env.BENCH_PG_URL ?? process.env.IDP_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const workerScript = fileURLToPath(new URL('./jobs/worker.js', import.meta.url));
const JOBS = 2000;
const RUNS = 3;
const CLAIMS = 600;

export const name = 'jobs';
export const description = 'background jobs on PostgreSQL: throughput (1 and 3 workers) and claim latency';

/** Runs the suite; returns rows of { name, value, unit }. */
export async function run() {
  const results = [];
  for (const workers of [1, 3]) {
    const rates = [];
    for (let i = 0; i < RUNS; i += 1) rates.push(await withDatabase((url, db) => throughput(url, db, workers)));
    results.push({ name: `jobs/s, ${workers} worker${workers === 1 ? '' : 's'} (median of ${RUNS})`, value: Math.round(median(rates)), unit: 'jobs/s' });
  }
  const latencies = await withDatabase((_url, db, config) => claimLatency(db, config));
  results.push({ name: 'claim latency p50 (3 concurrent claimers)', value: round(percentile(latencies, 50)), unit: 'ms' });
  results.push({ name: 'claim latency p99 (3 concurrent claimers)', value: round(percentile(latencies, 99)), unit: 'ms' });
  return results;
}

async function throughput(url, db, workerCount) {
  await enqueue(db, JOBS);
  const workers = [];
  for (let i = 0; i < workerCount; i += 1) workers.push(spawnWorker(url, `bench-${i}`));
  try {
    await Promise.all(workers.map((w) => w.ready));
    const started = performance.now();
    // Workers were started on a full queue; time until every job has succeeded.
    for (;;) {
      const counts = await jobs.countByState(db);
      if (counts.succeeded === JOBS) break;
      if (counts.failed > 0) throw new Error(`${counts.failed} benchmark jobs failed`);
      await sleep(10);
    }
    return JOBS / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

async function claimLatency(db, config) {
  await enqueue(db, CLAIMS);
  const claimers = [db, connectDatabase(config), connectDatabase(config)];
  const samples = [];
  try {
    await Promise.all(
      claimers.map(async (conn, n) => {
        for (;;) {
          const now = Date.now();
          const t0 = performance.now();
          const job = await jobs.claim(conn, { owner: `claimer-${n}`, now, leaseExpiresAt: now + 60_000, kinds: ['noop'] });
          if (!job) return;
          samples.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await Promise.all(claimers.slice(1).map((c) => c.destroy()));
  }
  return samples;
}

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

function spawnWorker(url, instance) {
  const child = spawn(process.execPath, [workerScript], { env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_INSTANCE: instance }, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`benchmark worker exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    ready,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function withDatabase(fn) {
  const dbName = `idp_bench_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const config = { client: 'postgres', filename: '', url: url.toString(), pool: { min: 0, max: 4 } };
  const db = connectDatabase(config);
  try {
    await migrateUp(db);
    return await fn(url.toString(), db, config);
  } finally {
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.destroy();
  }
}

function median(values) {
  return percentile(values, 50);
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

const round = (n) => Math.round(n * 100) / 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}`);
}
