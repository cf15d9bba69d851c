// @ts-check
/**
 * apply of a large config (issue 2): 10,000 users and 1,000 clients.
 * Each case is one `idp apply` (or `idp validate`) worth of work in a fresh
 * process; the harness repeats it 3 times and reports medians and the
 * highest peak RSS.
 *
 * - sqlite / postgres: load the generated file with the real loader, then
 *   time the first apply into an empty migrated database and a no-op
 *   re-apply (the loading is not timed: see validate).
 * - sqlite-swap / postgres-swap (issue 10 item 10): the first apply after
 *   a bulk load. A first apply fills an empty database (its tables never
 *   analyzed), then a config in which half the users and half the clients
 *   are new objects is applied: 5,000 users and 500 clients created, as
 *   many removed (grants revoked). Only that second apply is timed.
 * - validate: loadConfigText (parse, shape, rules, normalize) of the file.
 *
 * Targets (2-core machine, SQLite): first apply < 3 s, re-apply < 1.5 s,
 * validate < 1 s, peak RSS < 300 MB; the swap on PostgreSQL < 5 s.
 * PostgreSQL's first apply and re-apply, and SQLite's swap, are measured
 * for comparison, without targets.
 */
import { performance } from 'node:perf_hooks';
import { loadConfigText } from '../../dist/config/index.js';
import { applyConfig } from '../../dist/gitops/index.js';
import { createBenchDatabase } from '../lib/bench-database.js';
import { generateApplyConfig } from './apply/generate-config.js';

const USERS = 10_000;
const CLIENTS = 1_000;
const SIZE = `${USERS} users + ${CLIENTS} clients`;

/** @param {string} text */
function load(text) {
  const result = loadConfigText(text, { file: 'bench-apply.yaml', env: {}, cwd: process.cwd() });
  if (!result.ok)
    throw new Error(
      `the generated config is invalid: ${result.problems
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}`,
    );
  return result.config;
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @param {{ firstMs?: number, reapplyMs?: number, rssMb?: number }} targets
 * @returns {import('../lib/types.js').Case}
 */
function applyCase(kind, targets) {
  return {
    name: kind,
    rssTargetMb: targets.rssMb ?? null,
    async run() {
      const config = load(generateApplyConfig({ users: USERS, clients: CLIENTS }));
      const database = await createBenchDatabase(kind);
      try {
        let start = performance.now();
        const created = await applyConfig(database.storage, config);
        const firstMs = performance.now() - start;
        if (created.plan.summary.create !== USERS + CLIENTS)
          throw new Error(`the first apply created ${created.plan.summary.create} objects`);
        start = performance.now();
        const again = await applyConfig(database.storage, config);
        const reapplyMs = performance.now() - start;
        if (again.plan.changes.length !== 0) throw new Error('the re-apply found changes');
        return [
          {
            name: kind,
            metric: `first apply (${SIZE})`,
            value: firstMs,
            unit: 'ms',
            target: targets.firstMs ? { max: targets.firstMs } : null,
          },
          {
            name: kind,
            metric: `no-op re-apply (${SIZE})`,
            value: reapplyMs,
            unit: 'ms',
            target: targets.reapplyMs ? { max: targets.reapplyMs } : null,
          },
        ];
      } finally {
        await database.destroy();
      }
    },
  };
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @param {number | null} targetMs
 * @returns {import('../lib/types.js').Case}
 */
function swapCase(kind, targetMs) {
  return {
    name: `${kind}-swap`,
    async run() {
      const first = load(generateApplyConfig({ users: USERS, clients: CLIENTS }));
      const swapped = load(
        generateApplyConfig({ users: USERS, clients: CLIENTS, firstUser: USERS / 2, firstClient: CLIENTS / 2 }),
      );
      const database = await createBenchDatabase(kind);
      try {
        await applyConfig(database.storage, first);
        const start = performance.now();
        const result = await applyConfig(database.storage, swapped);
        const swapMs = performance.now() - start;
        const { create, remove } = result.plan.summary;
        if (create !== (USERS + CLIENTS) / 2 || remove !== create)
          throw new Error(`the swap created ${create} and removed ${remove} objects`);
        return [
          {
            name: `${kind}-swap`,
            metric: `50% swap after a first apply (${SIZE})`,
            value: swapMs,
            unit: 'ms',
            target: targetMs ? { max: targetMs } : null,
          },
        ];
      } finally {
        await database.destroy();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `apply of ${SIZE} (first, no-op re-apply, a 50% swap after the first) and validate`,
  cases: [
    applyCase('sqlite', { firstMs: 3000, reapplyMs: 1500, rssMb: 300 }),
    applyCase('postgres', {}),
    swapCase('sqlite', null),
    swapCase('postgres', 5000),
    {
      name: 'validate',
      rssTargetMb: 300,
      async run() {
        const text = generateApplyConfig({ users: USERS, clients: CLIENTS });
        const start = performance.now();
        load(text);
        return [
          {
            name: 'validate',
            metric: `loadConfigText (${SIZE})`,
            value: performance.now() - start,
            unit: 'ms',
            target: { max: 1000 },
          },
        ];
      },
    },
  ],
};
