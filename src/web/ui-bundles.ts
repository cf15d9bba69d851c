import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * dist/ui/, beside dist/web/ where this module runs in the package: the
 * pages' scripts as `npm run build` bundled them (scripts/bundle-ui.mjs),
 * each with /ui/frame.js and the passkey library. Run from src/ (the
 * tests, development) there is no such directory, and the pages load
 * their modules one by one, so that a change shows without a build.
 */
const bundleDirectory = fileURLToPath(new URL('../ui/', import.meta.url));

/** The bundles by script name ("login.js"), read once at start; empty without a build. */
export function loadUiBundles(directory = bundleDirectory): ReadonlyMap<string, string> {
  const bundles = new Map<string, string>();
  if (!existsSync(directory)) return bundles;
  for (const file of readdirSync(directory)) {
    if (file.endsWith('.js')) bundles.set(file, readFileSync(new URL(file, `file://${directory}`), 'utf8'));
  }
  return bundles;
}
