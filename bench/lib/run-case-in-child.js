// @ts-check
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./run-case.js', import.meta.url));

/**
 * Runs one case in a fresh Node process (bench/lib/run-case.js) and
 * resolves with its measurements and peak RSS in kilobytes.
 * @param {string} suiteFile
 * @param {string} caseName
 * @returns {Promise<{ rows: import('./types.js').Measurement[], maxRssKb: number }>}
 */
export function runCaseInChild(suiteFile, caseName) {
  return new Promise((resolve, reject) => {
    const child = fork(entry, [suiteFile, caseName], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    /** @type {any} */
    let answer = null;
    child.on('message', (message) => {
      answer = message;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (answer?.ok) resolve({ rows: answer.rows, maxRssKb: answer.maxRssKb });
      else reject(new Error(answer?.error ?? `case "${caseName}" exited with code ${code} and no result`));
    });
  });
}
