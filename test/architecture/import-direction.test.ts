import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The direction of imports (docs/architecture.md, "Layers"): each part of
 * src/ may import only parts of a LOWER layer, and the libraries that tie
 * code to one edge (hapi and joi for HTTP, knex for storage, chalk for the
 * terminal) are imported only at that edge. The rules are data, so the
 * test can also show that it catches a violation.
 */
export const layers: string[][] = [
  ['model', 'clock.ts', 'api-error.ts'],
  ['config'],
  ['storage', 'logger.ts', 'i18n'],
  ['security', 'events', 'mail', 'area-wiring.ts'],
  ['keys', 'clients', 'accounts', 'access'],
  ['interaction'],
  ['oidc', 'federation'],
  ['admin', 'gitops', 'scheduler', 'web', 'forward-auth', 'backup'],
  ['operations'],
  ['http'],
  ['foundation.ts'],
  ['app.ts'],
  ['cli'],
];

/** Library → the only place (a folder or file under src/) allowed to import it. */
export const edgeLibraries: { pattern: RegExp; allowedIn: string; why: string }[] = [
  { pattern: /^@hapi\/|^joi$|^joi-to-json$/, allowedIn: 'http/', why: 'the HTTP edge' },
  { pattern: /^knex$|^pg$|^sqlite3$/, allowedIn: 'storage/knex/', why: 'the storage implementation' },
  { pattern: /^chalk$/, allowedIn: 'cli/output.ts', why: 'the CLI output module' },
  { pattern: /^prom-client$/, allowedIn: 'operations/', why: 'the metrics of src/operations' },
];

interface ImportEdge {
  file: string;
  specifier: string;
}

const srcRoot = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'public' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Static and dynamic imports and re-exports, type-only ones included (they still couple the code). */
function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const rel = path.relative(srcRoot, file);
  const found = text.matchAll(
    /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g,
  );
  return [...found].map((m) => ({ file: rel, specifier: m[1] ?? m[2] ?? m[3] }));
}

/** The part of src/ a path belongs to: its top folder, or the file itself at the top. */
export function partOf(relPath: string): string {
  return relPath.split(path.sep)[0];
}

function layerOf(part: string): number {
  return layers.findIndex((layer) => layer.includes(part));
}

/** Every rule broken by these edges, one readable line each. */
export function violations(edges: ImportEdge[]): string[] {
  const problems: string[] = [];
  for (const { file, specifier } of edges) {
    const from = partOf(file);
    if (specifier.startsWith('.')) {
      const target = path
        .relative(srcRoot, path.resolve(srcRoot, path.dirname(file), specifier))
        .replace(/\.js$/, '.ts');
      const to = partOf(target);
      if (to === from) continue;
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a < 0)
        problems.push(`${file}: src/${from} is in no layer (add it to the layer list and docs/architecture.md)`);
      else if (b < 0) problems.push(`${file}: imports src/${to}, which is in no layer`);
      else if (b >= a) problems.push(`${file}: ${from} (layer ${a}) imports ${to} (layer ${b}), which is not below it`);
      continue;
    }
    for (const library of edgeLibraries) {
      const inside = file === library.allowedIn || file.startsWith(library.allowedIn);
      if (library.pattern.test(specifier) && !inside)
        problems.push(`${file}: imports ${specifier}, allowed only in src/${library.allowedIn} (${library.why})`);
    }
  }
  return problems;
}

const allEdges = sourceFiles(srcRoot).flatMap(importsOf);

describe('the direction of imports', () => {
  it('finds the imports it checks', () => {
    expect(allEdges.length).toBeGreaterThan(500);
    expect(allEdges.some((e) => e.file === 'app.ts' && e.specifier === './http/create-server.js')).toBe(true);
  });

  it('every part of src/ is in exactly one layer', () => {
    const parts = new Set(readdirSync(srcRoot).filter((name) => name !== 'public'));
    const listed = layers.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...parts].sort()).toEqual([...listed].sort());
  });

  it('no part imports a part of its own or a higher layer, and edge libraries stay at their edge', () => {
    expect(violations(allEdges)).toEqual([]);
  });

  it('reports each kind of violation', () => {
    expect(
      violations([
        { file: 'storage/repositories.ts', specifier: '../oidc/errors.js' },
        { file: 'keys/key-store.ts', specifier: '../clients/index.js' },
        { file: 'oidc/token/index.ts', specifier: '@hapi/boom' },
        { file: 'accounts/login.ts', specifier: 'joi' },
        { file: 'gitops/apply-config.ts', specifier: 'knex' },
        { file: 'storage/repositories.ts', specifier: 'pg' },
        { file: 'cli/commands/apply.ts', specifier: 'chalk' },
      ]),
    ).toEqual([
      'storage/repositories.ts: storage (layer 2) imports oidc (layer 6), which is not below it',
      'keys/key-store.ts: keys (layer 4) imports clients (layer 4), which is not below it',
      'oidc/token/index.ts: imports @hapi/boom, allowed only in src/http/ (the HTTP edge)',
      'accounts/login.ts: imports joi, allowed only in src/http/ (the HTTP edge)',
      'gitops/apply-config.ts: imports knex, allowed only in src/storage/knex/ (the storage implementation)',
      'storage/repositories.ts: imports pg, allowed only in src/storage/knex/ (the storage implementation)',
      'cli/commands/apply.ts: imports chalk, allowed only in src/cli/output.ts (the CLI output module)',
    ]);
    expect(
      violations([
        { file: 'http/routes.ts', specifier: '@hapi/hapi' },
        { file: 'oidc/token/index.ts', specifier: '../../keys/index.js' },
      ]),
    ).toEqual([]);
  });
});
