// @ts-check
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** @param {string} dir @param {string} ext */
function newestMtime(dir, ext) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(ext)) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Suites import the compiled code in dist/. When any source file is newer
 * than the newest compiled one (or dist/ is missing), run `tsc` first. A
 * type error elsewhere in the tree does not stop the benchmark as long as
 * tsc emitted the files (it emits despite errors); it is reported.
 * @param {string} root
 */
export function ensureBuilt(root) {
  const stale = newestMtime(path.join(root, 'src'), '.ts') > newestMtime(path.join(root, 'dist'), '.js');
  if (!stale) return;
  process.stderr.write('bench: dist/ is older than src/, building (tsc)…\n');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) {
    if (!existsSync(path.join(root, 'dist/cli/main.js')))
      throw new Error('tsc failed and dist/ is missing: fix the build first (npm run build)');
    process.stderr.write('bench: tsc reported errors (see above); benchmarking the files it emitted\n');
  }
}
