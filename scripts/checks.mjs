// @ts-check
/**
 * The checks `npm test` runs after the build, as their npm scripts: lint,
 * formatting, and the types of the tests and the pages' scripts (the build
 * has checked src). Two at a time, as CI has two cores and each is
 * single-threaded: ESLint alone takes as long as the others together. Each
 * one's output is printed when it ends; the exit code is 1 if any failed.
 */
import { spawn } from 'node:child_process';

const checks = ['lint', 'format:check', 'typecheck:tests'];

/** @param {string} script */
function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`> npm run ${script} (${code === 0 ? 'passed' : 'failed'}, ${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...checks];
const lanes = Array.from({ length: 2 }, async () => {
  let passed = true;
  for (let next = queue.shift(); next; next = queue.shift()) passed = (await run(next)) && passed;
  return passed;
});
process.exitCode = (await Promise.all(lanes)).every(Boolean) ? 0 : 1;
