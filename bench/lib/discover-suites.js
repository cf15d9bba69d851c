// @ts-check
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * bench/suites/*.js, sorted; with names, only those (`npm run bench -- apply`).
 * @param {string} dir
 * @param {string[]} only
 * @returns {{ name: string, file: string }[]}
 */
export function discoverSuites(dir, only) {
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => ({ name: f.slice(0, -3), file: path.join(dir, f) }));
  const unknown = only.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown suite ${unknown.join(', ')} (have: ${all.map((s) => s.name).join(', ')})`);
  return only.length === 0 ? all : all.filter((s) => only.includes(s.name));
}
