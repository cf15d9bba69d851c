// @ts-check
/**
 * Child-process entry: runs ONE case of one suite and sends its rows and
 * the process's peak RSS to the parent. One process per case, so that the
 * peak RSS belongs to that case alone.
 *
 * argv: <suite file> <case name>
 */
import { loadSuite } from './load-suite.js';

const [suiteFile, caseName] = process.argv.slice(2);
const suite = await loadSuite(suiteFile);
const found = suite.cases.find((c) => c.name === caseName);
if (!found) throw new Error(`no case "${caseName}" in ${suiteFile}`);
try {
  const rows = await found.run();
  // resourceUsage().maxRSS is in kilobytes.
  process.send?.({ ok: true, rows, maxRssKb: process.resourceUsage().maxRSS });
} catch (error) {
  process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
process.disconnect?.();
