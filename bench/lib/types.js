// @ts-check
/**
 * The shapes a suite deals in (JSDoc only; no runtime code).
 *
 * A suite (bench/suites/<name>.js) default-exports:
 *
 *   { description: string, cases: Case[] }
 *
 * A case is ONE run of something, in a fresh child process: the harness
 * runs it `runs` times (default 3), each time in a new process, and
 * reports the median of each measurement and the highest peak RSS of those
 * processes (the footprint of, say, one `idp apply`, not of a process that
 * did it three times). It adds the suite name and the verdict.
 *
 * @typedef {{ max?: number, min?: number }} Target  value must be < max and/or > min
 * @typedef {{ name: string, metric: string, value: number | null, unit: string, target?: Target | null, note?: string }} Measurement
 * @typedef {{ name: string, runs?: number, rssTargetMb?: number | null, run: () => Promise<Measurement[]> }} Case
 * @typedef {{ description: string, cases: Case[] }} Suite
 * @typedef {{ suite: string, name: string, metric: string, value: number | null, unit: string, target: Target | null, ok: boolean | null, runs: (number | null)[], note?: string }} Row
 */
export {};
