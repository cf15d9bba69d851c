import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * @simplewebauthn/browser's ES modules, for the pages' scripts (docs/http-api.md, "Second factors",
 * passkeys). The pages allow scripts of their own origin only
 * (script-src 'self'), so the package's files are served by idp itself, from
 * the installed package: read once at start, every `.js` file of its `esm`
 * directory by its path there ("index.js", "methods/startRegistration.js").
 * Nothing else of node_modules is reachable: a path not in the map is a 404.
 */
export function loadWebAuthnBrowserModules(): ReadonlyMap<string, string> {
  // The package exports one entry per module system: require's (script/index.js) sits beside the esm directory.
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  const root = path.join(path.dirname(path.dirname(entry)), 'esm');
  const modules = new Map<string, string>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    // Source maps are not served: drop the comment that would ask for them.
    const text = readFileSync(path.join(root, file), 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/gm, '');
    modules.set(file.split(path.sep).join('/'), text);
  }
  return modules;
}
