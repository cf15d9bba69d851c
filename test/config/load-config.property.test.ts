import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem, loadConfig, type LoadResult } from '../../src/config/index.js';
import { load, validHash } from './load-text.js';

/** What YAML reads as structure, for random texts that are more than plain words. */
const yamlCharacters = 'ab: -[]{}&*!|>\'"#%@`\t ,?${}\\';

/** The loader's promise: a config, or a non-empty list of errors that each point at a line and column of the text. */
function expectConfigOrLocatedErrors(text: string, result: LoadResult): void {
  if (result.ok) {
    expect(result.config.server.port).toBeTypeOf('number');
    for (const warning of result.warnings) expect(warning.severity).toBe('warning');
    return;
  }
  const errors = result.problems.filter((p) => p.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  const lineCount = text.split('\n').length;
  for (const problem of errors) {
    expect(problem.message.length).toBeGreaterThan(0);
    expect(formatProblem(problem)).not.toContain('\n');
    expect(problem.line, formatProblem(problem)).not.toBeNull();
    expect(problem.line!).toBeGreaterThanOrEqual(1);
    expect(problem.line!).toBeLessThanOrEqual(lineCount);
    expect(problem.column!).toBeGreaterThanOrEqual(1);
  }
}

const base = {
  server: { base_url: 'http://localhost:8080', port: 8080 },
  security: { secret: 'x'.repeat(32) },
  database: { client: 'sqlite', filename: './idp.sqlite' },
  registration: { enabled: true, allowed_email_patterns: ['*@example.com'], signup_notice: { en: 'Hi' } },
  users: [
    { sub: 'admin', email: 'admin@example.com', role: 'admin', password_hash: validHash },
    { sub: 'bob', email: 'bob@example.com' },
  ],
  clients: [
    { client_id: 'spa', token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:5173/cb'] },
    {
      client_id: 'web',
      client_secret: '${WEB_SECRET:-dev}',
      redirect_uris: ['https://app.example.com/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
    },
  ],
  identity_providers: [
    {
      id: 'corp',
      type: 'generic_oauth',
      display_name: 'Corp',
      authorization_url: 'https://sso.example.com/a',
      token_url: 'https://sso.example.com/t',
      client_id: 'a',
      client_secret: 'b',
    },
  ],
  terms: [
    { id: 'tos', version: '1', content: { en: { title: 'Terms', type: 'link', content: 'https://example.com/tos' } } },
  ],
  scheduler: { mode: 'database', cleanup_cron: '0 2 * * *', background_max_attempts: 3 },
  frontend: { mode: 'proxy', path: 'http://127.0.0.1:5173', html_variables: { A: 'b' } },
};

type Json = unknown;
type PathTo = (string | number)[];

function allPaths(value: Json, prefix: PathTo = []): PathTo[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => allPaths(child, [...prefix, key]))];
}

type Mutation = { kind: 'delete' | 'replace' | 'insert'; pick: number; key: string; value: Json };

function mutate(original: Json, mutations: Mutation[]): Json {
  const copy = structuredClone(original) as Record<string, Json>;
  for (const m of mutations) {
    const paths = allPaths(copy);
    const target = paths[m.pick % paths.length];
    if (target.length === 0) continue;
    const parent = target
      .slice(0, -1)
      .reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], copy) as Record<string | number, Json>;
    const last = target[target.length - 1];
    if (m.kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else Reflect.deleteProperty(parent, last);
    } else if (m.kind === 'replace') {
      parent[last] = m.value;
    } else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last])) {
      (parent[last] as Record<string, Json>)[m.key] = m.value;
    }
  }
  return copy;
}

const knownKeys = [
  'sub',
  'email',
  'client_id',
  'redirect_uris',
  'type',
  'mode',
  'path',
  'port',
  'url',
  'client',
  'enabled',
  'id',
  'version',
  'content',
  'secret',
  'grant_types',
];
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete' as const, 'replace' as const, 'insert' as const),
  pick: fc.nat(),
  key: fc.oneof(fc.constantFrom(...knownKeys), fc.string({ maxLength: 12 })),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(
      '${UNSET}',
      '${SET:-x}',
      '$${',
      'none',
      'postgres',
      'generic_oauth',
      'http://a/#f',
      '',
      'ADMIN@example.com',
      'admin',
      '0 0 31 2 *',
    ),
  ),
});

describe('the loader never throws and always explains itself (fast-check)', () => {
  it('on random text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: fc.constantFrom(...`${yamlCharacters}\n`.split('')), maxLength: 120 }),
        ),
        (text) => {
          expectConfigOrLocatedErrors(text, load(text, { SET: '1' }));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('on random YAML values', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3, withNullPrototype: false }), (value) => {
        let text: string | undefined;
        try {
          text = stringify(value);
        } catch {
          return; // some values (e.g. symbols) have no YAML form: nothing to load
        }
        if (text === undefined) return;
        expectConfigOrLocatedErrors(text, load(text, { SET: '1' }));
      }),
      { numRuns: 300 },
    );
  });

  it('on a valid config with keys deleted, inserted and values swapped for other types', () => {
    expect(load(stringify(base)).ok).toBe(true);
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), fc.boolean(), (mutations, flow) => {
        const text = stringify(mutate(base, mutations), flow ? { collectionStyle: 'flow' } : {});
        expectConfigOrLocatedErrors(text, load(text, { SET: '1' }));
      }),
      { numRuns: 500 },
    );
  });
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-config-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function isUtf8Text(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return !bytes.includes(0);
  } catch {
    return false;
  }
}

async function loadBytes(bytes: Uint8Array): Promise<LoadResult> {
  writeFileSync(path.join(dir, 'random.yaml'), bytes);
  return loadConfig({ file: 'random.yaml', env: {}, cwd: dir });
}

describe('the file reader never throws, and explains a file that is not text in one problem (fast-check)', () => {
  // Mostly YAML punctuation and newlines, with any byte (NUL, invalid UTF-8) mixed in.
  const bytesArb = fc
    .array(fc.oneof(fc.constantFrom(...Buffer.from(`${yamlCharacters}\n`)), fc.integer({ min: 0, max: 255 })), {
      maxLength: 200,
    })
    .map((codes) => Uint8Array.from(codes));

  it('on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(bytesArb, fc.uint8Array({ maxLength: 200 })), async (bytes) => {
        const result = await loadBytes(bytes);
        expectConfigOrLocatedErrors(Buffer.from(bytes).toString('latin1'), result);
        if (!isUtf8Text(bytes)) expect(result.ok ? [] : result.problems.map(formatProblem)).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('no problem repeats a secret value, whatever surrounds it (fast-check)', () => {
  // A hyphen: never an environment variable's name, which a message may name.
  const marker = 'S3CRET-MARKER';
  const secretFields = [
    (value: string) => `security:\n  secret: ${value}\n`,
    (value: string) =>
      `clients:\n  - client_id: web\n    client_secret: ${value}\n    redirect_uris: [https://app.example.com/cb]\n`,
    (value: string) => `database:\n  client: postgres\n  url: ${value}\n`,
    (value: string) => `email:\n  smtp:\n    password: ${value}\n`,
  ];
  // Block mappings and no newline: the text stays the value of its key, and cannot become a key (which messages name).
  const around = fc.string({ unit: fc.constantFrom(...yamlCharacters.split('')), maxLength: 12 });
  const textArb = fc
    .tuple(fc.constantFrom(...secretFields), around, around)
    .map(([field, before, after]) => field(`${before}${marker}${after}`));

  const expectNoMarker = (result: LoadResult) => {
    for (const line of (result.ok ? result.warnings : result.problems).map(formatProblem))
      expect(line).not.toContain(marker);
  };

  it('in text', () => {
    fc.assert(
      fc.property(textArb, (text) => expectNoMarker(load(text, { SET: '1' }))),
      { numRuns: 500 },
    );
  });

  it('in a file with bytes that are not UTF-8 text around it', async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        fc.uint8Array({ maxLength: 8 }),
        fc.uint8Array({ maxLength: 8 }),
        async (text, before, after) => {
          const at = text.indexOf(marker);
          expectNoMarker(
            await loadBytes(
              Buffer.concat([
                Buffer.from(text.slice(0, at)),
                before,
                Buffer.from(marker),
                after,
                Buffer.from(text.slice(at + marker.length)),
              ]),
            ),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
