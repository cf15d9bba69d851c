// @ts-check
/**
 * `npm run bench [-- SUITE…]`: builds dist/ if it is stale, runs every
 * suite in bench/suites/ (or the named ones), each run of each case in its
 * own child process (bench/lib/run-case-repeatedly.js), and prints one markdown table; the same table goes to
 * bench/results/latest.md and the rows to bench/results/latest.json.
 *
 * Adding a suite: create bench/suites/<name>.js default-exporting
 * `{ description, cases: [{ name, rssTargetMb?, run }] }` (see
 * bench/lib/types.js and bench/lib/load-suite.js for the simpler
 * `export async function run()` form); `run()` returns measurements,
 * usually medians from `measure()` in bench/lib/measure.js. Suites import
 * the product from ../../dist/…. Only files directly in bench/suites/ are
 * suites; a suite's helpers live in a subfolder (bench/suites/jobs/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverSuites } from './lib/discover-suites.js';
import { ensureBuilt } from './lib/ensure-built.js';
import { loadSuite } from './lib/load-suite.js';
import { toMarkdown } from './lib/report.js';
import { runCaseRepeatedly } from './lib/run-case-repeatedly.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(benchDir);

async function main() {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  ensureBuilt(root);
  const suites = discoverSuites(path.join(benchDir, 'suites'), only);
  /** @type {import('./lib/types.js').Row[]} */
  const rows = [];
  let failures = 0;
  for (const suite of suites) {
    const loaded = await loadSuite(suite.file);
    process.stderr.write(`bench: ${suite.name}: ${loaded.description}\n`);
    for (const benchCase of loaded.cases) {
      process.stderr.write(`bench:   ${benchCase.name}…\n`);
      try {
        rows.push(...(await runCaseRepeatedly(suite.name, suite.file, benchCase)));
      } catch (error) {
        failures++;
        process.stderr.write(
          `bench:   ${benchCase.name} failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        rows.push({
          suite: suite.name,
          name: benchCase.name,
          metric: 'error',
          value: null,
          unit: '',
          target: null,
          ok: false,
          runs: [],
          note: 'failed, see log',
        });
      }
    }
  }
  const table = toMarkdown(rows);
  const machine =
    `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, ${os.platform()} ${os.arch()}`.replace(
      /\s+/g,
      ' ',
    );
  const generatedAt = new Date().toISOString();
  process.stdout.write(`${table}\n`);
  const results = path.join(benchDir, 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'latest.md'), `# Benchmark results\n\n${generatedAt} — ${machine}\n\n${table}\n`);
  writeFileSync(
    path.join(results, 'latest.json'),
    `${JSON.stringify({ generated_at: generatedAt, machine, rows }, null, 2)}\n`,
  );
  const missed = rows.filter((r) => r.ok === false).length;
  process.stderr.write(
    `bench: ${rows.length} rows, ${missed} not meeting their target${failures ? `, ${failures} case(s) failed` : ''}; written to bench/results/latest.{md,json}\n`,
  );
  process.exitCode = failures > 0 ? 1 : 0;
}

await main();
