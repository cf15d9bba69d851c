// @ts-check
/** autocannon runs, alone or interleaved across servers, summarised as medians. */
import autocannon from 'autocannon';
import { median } from '../../lib/measure.js';

/**
 * @typedef {{ connections: number, warmupS: number, durationS: number, rounds: number }} LoadSettings
 * @typedef {{ rps: number, p50: number, p99: number, failed: number }} LoadResult
 */

/**
 * req/s counts 2xx responses only: a server that fails fast (a refresh
 * token lost, an error) must not look faster for it. Latencies are of
 * every response; the failures are counted beside them.
 * @param {autocannon.Options} options @param {number} connections @param {number} durationS @returns {Promise<LoadResult>}
 */
async function once(options, connections, durationS) {
  const result = await autocannon({ connections, ...options, duration: durationS });
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/** One server alone: a warm-up, then one measured run. @param {autocannon.Options} options @param {LoadSettings} settings */
export async function load(options, settings) {
  await once(options, settings.connections, settings.warmupS);
  return once(options, settings.connections, settings.durationS);
}

/**
 * Loads each server in turn, `rounds` times, after one warm-up each, so that
 * a noisy minute on this shared machine hits every server alike; the
 * figures are per-server medians, the failures the sum over the measured
 * rounds, and a ratio the median of per-round ratios. A target's
 * `beforeRun` prepares each of its runs, untimed.
 * @param {{ name: string, options: autocannon.Options, beforeRun?: () => Promise<void> }[]} targets
 * @param {LoadSettings} settings
 */
export async function interleaved(targets, settings) {
  for (const t of targets) {
    await t.beforeRun?.();
    await once(t.options, settings.connections, settings.warmupS);
  }
  /** @type {Map<string, LoadResult[]>} */
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const t of targets) {
      await t.beforeRun?.();
      runs.get(t.name)?.push(await once(t.options, settings.connections, settings.durationS));
    }
  }
  const of = (/** @type {string} */ name) => runs.get(name) ?? [];
  /** @returns {LoadResult} */
  const summary = (/** @type {string} */ name) => {
    const r = of(name);
    return {
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      failed: r.reduce((n, x) => n + x.failed, 0),
    };
  };
  const ratio = (/** @type {string} */ a, /** @type {string} */ b) => {
    const rb = of(b);
    return median(of(a).map((x, i) => x.rps / rb[i].rps));
  };
  return { summary, ratio };
}
