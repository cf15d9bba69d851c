// @ts-check
import { pathToFileURL } from 'node:url';

/**
 * Imports a suite file and returns it in the one shape the harness runs.
 * Two forms are accepted:
 *
 * - `export default { description, cases: [{ name, rssTargetMb?, run }] }`:
 *   each case in its own process, with its own peak RSS;
 * - `export const description…; export async function run()` returning
 *   rows `{ name, value, unit, metric?, target? }`: the whole suite is one
 *   case named "all", run once (it takes its own medians).
 *
 * @param {string} file
 * @returns {Promise<import('./types.js').Suite>}
 */
export async function loadSuite(file) {
  const module = await import(pathToFileURL(file).href);
  if (module.default && Array.isArray(module.default.cases)) return module.default;
  if (typeof module.run === 'function') {
    return {
      description: module.description ?? '',
      cases: [
        {
          name: 'all',
          runs: 1,
          rssTargetMb: module.rssTargetMb ?? null,
          run: async () =>
            (await module.run()).map((/** @type {any} */ row) => ({
              metric: row.metric ?? '',
              target: row.target ?? null,
              ...row,
            })),
        },
      ],
    };
  }
  throw new Error(`${file}: a suite default-exports { description, cases } or exports run()`);
}
