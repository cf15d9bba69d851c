// @ts-check
import { performance } from 'node:perf_hooks';

/**
 * The median of a list of numbers (the mean of the middle two for an even
 * count). Medians, not means: one slow run on a shared machine must not
 * move the result.
 * @param {number[]} values
 */
export function median(values) {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Times `fn` `runs` times (milliseconds) and returns the median and every
 * run. `before(i)` prepares run i untimed (a fresh database…); its result
 * is handed to `fn`; `after(i, prepared)` cleans up, untimed too.
 *
 * @template T
 * @param {(prepared: T, run: number) => Promise<unknown> | unknown} fn
 * @param {{ runs?: number, before?: (run: number) => Promise<T> | T, after?: (run: number, prepared: T) => Promise<unknown> | unknown }} [options]
 * @returns {Promise<{ median: number, runs: number[] }>}
 */
export async function measure(fn, options = {}) {
  const count = options.runs ?? 3;
  const runs = [];
  for (let i = 0; i < count; i++) {
    const prepared = /** @type {T} */ (options.before ? await options.before(i) : undefined);
    const start = performance.now();
    await fn(prepared, i);
    runs.push(performance.now() - start);
    if (options.after) await options.after(i, prepared);
  }
  return { median: median(runs), runs };
}
