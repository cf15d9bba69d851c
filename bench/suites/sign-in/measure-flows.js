// @ts-check
import { performance } from 'node:perf_hooks';

/**
 * Runs `flow` back to back on `connections` workers: a warm-up, then a
 * measured period. A sign-in is two requests or more (password then code,
 * options then assertion), so autocannon's per-request figures would not
 * say what a person waits for: each flow is timed whole here.
 *
 * @param {(worker: number) => Promise<void>} flow throws when the sign-in did not succeed
 * @param {{ connections: number, warmupS: number, durationS: number }} options
 * @returns {Promise<{ perSecond: number, p50: number, p99: number, failed: number, firstError: string | undefined }>}
 */
export async function measureFlows(flow, { connections, warmupS, durationS }) {
  /** @type {number[]} */
  const latencies = [];
  let failed = 0;
  /** @type {string | undefined} */
  let firstError;
  const start = performance.now();
  const measureFrom = start + warmupS * 1000;
  const end = measureFrom + durationS * 1000;
  const worker = async (/** @type {number} */ index) => {
    while (performance.now() < end) {
      const began = performance.now();
      try {
        await flow(index);
        if (began >= measureFrom) latencies.push(performance.now() - began);
      } catch (error) {
        if (began >= measureFrom) failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { perSecond: latencies.length / durationS, p50: at(0.5), p99: at(0.99), failed, firstError };
}
