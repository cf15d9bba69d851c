#!/usr/bin/env node
/**
 * Bundles the built-in pages' scripts for the package (part of `npm run
 * build`): one file per script of src/web/public/ui, with /ui/frame.js (which
 * every page runs) and everything it imports, @simplewebauthn/browser
 * included, written to dist/ui/. `idp serve` from dist/ then links
 * /ui/bundle/<script> instead of the modules (src/web/ui-bundles.ts): one
 * request per page instead of two dozen. Run from src/ (the tests), the
 * pages load the modules themselves, so a change shows without a build.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const uiDirectory = path.join(root, 'src/web/public/ui');
const outDirectory = path.join(root, 'dist/ui');

// The pages import the passkey library from the address idp serves it at (/ui/vendor/webauthn/); here, from the package.
const webauthnEntry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
const webauthnModule = path.join(path.dirname(path.dirname(webauthnEntry)), 'esm', 'index.js');
const vendor = {
  name: 'vendor-webauthn',
  setup(plugin) {
    plugin.onResolve({ filter: /^\/ui\/vendor\/webauthn\/index\.js$/ }, () => ({ path: webauthnModule }));
  },
};

const scripts = readdirSync(uiDirectory).filter((file) => file.endsWith('.js') && file !== 'frame.js');
for (const script of scripts) {
  await build({
    stdin: {
      contents: `import './frame.js';\nimport './${script}';\n`,
      resolveDir: uiDirectory,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    plugins: [vendor],
    outfile: path.join(outDirectory, script),
    logLevel: 'warning',
  });
}
console.log(`bundled ${scripts.length} page scripts into dist/ui/`);
