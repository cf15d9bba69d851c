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
 * - validate: loadConfigText (parse, shape, rules, normalize) of the file.
 *
 * Targets (2-core machine, SQLite): first apply < 3 s, re-apply < 1.5 s,
 * validate < 1 s, peak RSS < 300 MB. PostgreSQL is measured for
 * comparison, without targets.
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
  if (!result.ok) throw new Error(`the generated config is invalid: ${result.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
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
        if (created.plan.summary.create !== USERS + CLIENTS) throw new Error(`the first apply created ${created.plan.summary.create} objects`);
        start = performance.now();
        const again = await applyConfig(database.storage, config);
        const reapplyMs = performance.now() - start;
        if (again.plan.changes.length !== 0) throw new Error('the re-apply found changes');
        return [
          { name: kind, metric: `first apply (${SIZE})`, value: firstMs, unit: 'ms', target: targets.firstMs ? { max: targets.firstMs } : null },
          { name: kind, metric: `no-op re-apply (${SIZE})`, value: reapplyMs, unit: 'ms', target: targets.reapplyMs ? { max: targets.reapplyMs } : null },
        ];
      } finally {
        await database.destroy();
      }
    },
  };
}

/** @type {import('../lib/types.js').Suite} */
export default {
  description: `apply of ${SIZE} (first, no-op re-apply) and validate`,
  cases: [
    applyCase('sqlite', { firstMs: 3000, reapplyMs: 1500, rssMb: 300 }),
    applyCase('postgres', {}),
    {
      name: 'validate',
      rssTargetMb: 300,
      async run() {
        const text = generateApplyConfig({ users: USERS, clients: CLIENTS });
        const start = performance.now();
        load(text);
        return [{ name: 'validate', metric: `loadConfigText (${SIZE})`, value: performance.now() - start, unit: 'ms', target: { max: 1000 } }];
      },
    },
  ],
};
