// @ts-check
import { median } from './measure.js';
import { meetsTarget } from './report.js';
import { runCaseInChild } from './run-case-in-child.js';

/**
 * Runs a case `runs` times, each in a fresh process, and turns the results
 * into rows: the median of each measurement (all runs kept in `runs`), and
 * one peak RSS row, the highest of the processes.
 *
 * @param {string} suiteName
 * @param {string} suiteFile
 * @param {import('./types.js').Case} benchCase
 * @returns {Promise<import('./types.js').Row[]>}
 */
export async function runCaseRepeatedly(suiteName, suiteFile, benchCase) {
  const count = benchCase.runs ?? 3;
  /** @type {Map<string, { first: import('./types.js').Measurement, values: (number | null)[] }>} */
  const byMetric = new Map();
  const rssMb = [];
  for (let i = 0; i < count; i++) {
    const result = await runCaseInChild(suiteFile, benchCase.name);
    rssMb.push(Math.round((result.maxRssKb / 1024) * 10) / 10);
    for (const m of result.rows) {
      const key = `${m.name}\u0000${m.metric}`;
      const entry = byMetric.get(key) ?? { first: m, values: [] };
      entry.values.push(m.value);
      byMetric.set(key, entry);
    }
  }
  /** @type {import('./types.js').Row[]} */
  const rows = [];
  for (const { first, values } of byMetric.values()) {
    const numbers = /** @type {number[]} */ (values.filter((v) => v !== null));
    const value = numbers.length === 0 ? null : median(numbers);
    const target = first.target ?? null;
    const note = count > 1 ? `median of ${count}` : first.note;
    rows.push({
      suite: suiteName,
      name: first.name,
      metric: first.metric,
      value,
      unit: first.unit,
      target,
      ok: meetsTarget(target, value),
      runs: values,
      ...(note ? { note } : {}),
    });
  }
  const rssTarget = benchCase.rssTargetMb ? { max: benchCase.rssTargetMb } : null;
  const peak = Math.max(...rssMb);
  rows.push({
    suite: suiteName,
    name: benchCase.name,
    metric: 'peak RSS',
    value: peak,
    unit: 'MB',
    target: rssTarget,
    ok: meetsTarget(rssTarget, peak),
    runs: rssMb,
    ...(count > 1 ? { note: `highest of ${count}` } : {}),
  });
  return rows;
}
