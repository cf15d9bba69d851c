import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compareSchemaWithTypes, type JsonSchema } from './compare-schema-with-types.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const schemaPath = path.join(root, 'schemas/config.schema.json');
const fileTypesPath = path.join(root, 'src/config/file-types.ts');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as JsonSchema;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'idp-schema-types-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of file-types.ts with one edit, to prove the comparison notices it. */
function editedFileTypes(from: string, to: string): string {
  const text = readFileSync(fileTypesPath, 'utf8');
  expect(text).toContain(from);
  const file = path.join(scratch, `file-types-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, text.replace(from, to));
  return file;
}

describe('schemas/config.schema.json and src/config/file-types.ts', () => {
  it('agree on every property, optionality, type and enum literal', () => {
    expect(compareSchemaWithTypes(schema, fileTypesPath, 'ConfigFile')).toEqual([]);
  });

  it('rejects unknown keys everywhere and describes every property', () => {
    const problems: string[] = [];
    const walk = (node: JsonSchema, at: string) => {
      if (node.type === 'object' || node.properties) {
        if (node.properties && node.additionalProperties !== false)
          problems.push(`${at}: additionalProperties is not false`);
        for (const [name, child] of Object.entries(node.properties ?? {})) {
          if (typeof child.description !== 'string' || child.description === '')
            problems.push(`${at}.${name}: no description`);
          walk(child, `${at}.${name}`);
        }
        if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}[*]`);
      }
      if (node.items) walk(node.items, `${at}[]`);
    };
    walk(schema, 'root');
    expect(problems).toEqual([]);
  });
});

describe('the comparison fails when they disagree', () => {
  const clone = () => structuredClone(schema) as JsonSchema & { properties: Record<string, JsonSchema> };
  const upstreamShapes = (s: ReturnType<typeof clone>) => s.properties.groups.items!.properties!.upstream.items!.oneOf!;

  it('reads a pattern as a constraint on a string, with no effect on its type', () => {
    const edited = clone();
    edited.properties.server.properties!.host.pattern = '^[a-z0-9.:-]+$';
    expect(compareSchemaWithTypes(edited, fileTypesPath, 'ConfigFile')).toEqual([]);
  });

  it.each([
    [
      'a property only in the schema',
      (s: ReturnType<typeof clone>) => (s.properties.server.properties!.extra = { type: 'string', description: 'x' }),
      'ConfigFile.server.extra: in the schema but missing in TypeScript',
    ],
    [
      'a property only in TypeScript',
      (s: ReturnType<typeof clone>) => delete s.properties.server.properties!.trust_proxy,
      'ConfigFile.server.trust_proxy: in TypeScript but missing in the schema',
    ],
    [
      'an enum literal',
      (s: ReturnType<typeof clone>) => s.properties.tokens.properties!.signing_alg.enum!.push('PS256'),
      'ConfigFile.tokens.signing_alg: enum is',
    ],
    [
      'a type',
      (s: ReturnType<typeof clone>) => (s.properties.server.properties!.port.type = 'string'),
      'ConfigFile.server.port: type is string',
    ],
    [
      'a default removed (optionality)',
      (s: ReturnType<typeof clone>) => delete s.properties.server.properties!.host.default,
      'ConfigFile.server.host: optional in the schema but not optional in TypeScript',
    ],
    [
      'an array item type',
      (s: ReturnType<typeof clone>) => (s.properties.users.items!.properties!.role.enum = ['user', 'admin', 'owner']),
      'ConfigFile.users[].role: enum is',
    ],
    [
      'a map value type',
      (s: ReturnType<typeof clone>) =>
        ((s.properties.frontend.properties!.html_variables.additionalProperties as JsonSchema).type = 'number'),
      'ConfigFile.frontend.html_variables[*]: type is number',
    ],
    [
      'a keyword it does not understand',
      (s: ReturnType<typeof clone>) => (s.properties.server.properties!.port.anyOf = []),
      'schema keyword "anyOf"',
    ],
    [
      'a pattern on a value that is not a string',
      (s: ReturnType<typeof clone>) => (s.properties.server.properties!.port.pattern = '^[0-9]+$'),
      'ConfigFile.server.port: pattern constrains strings, but the schema type is integer',
    ],
    [
      'a property added to a oneOf shape',
      (s: ReturnType<typeof clone>) => (upstreamShapes(s)[1].properties!.org = { type: 'string', description: 'x' }),
      'ConfigFile.groups[].upstream[]: the oneOf shape { org, provider, team } of the schema has no TypeScript union member with these properties',
    ],
    [
      'a oneOf shape removed',
      (s: ReturnType<typeof clone>) => upstreamShapes(s).pop(),
      'ConfigFile.groups[].upstream[]: the TypeScript union member { provider, team } is no oneOf shape of the schema',
    ],
    [
      'a type inside a oneOf shape',
      (s: ReturnType<typeof clone>) => (upstreamShapes(s)[1].properties!.team.type = 'number'),
      'ConfigFile.groups[].upstream[]{ provider, team }.team: type is number in the schema but string in TypeScript',
    ],
    [
      'a required key of a oneOf shape (optionality)',
      (s: ReturnType<typeof clone>) => (upstreamShapes(s)[0].required = ['provider', 'claim']),
      'ConfigFile.groups[].upstream[]{ claim, provider, value }.value: optional in the schema but not optional in TypeScript',
    ],
    [
      'a oneOf shape that is not an object',
      (s: ReturnType<typeof clone>) => upstreamShapes(s).push({ type: 'string' }),
      'ConfigFile.groups[].upstream[]: oneOf[2] is not an object shape',
    ],
  ])('schema edit: %s', (_name, edit, expected) => {
    const edited = clone();
    edit(edited);
    const mismatches = compareSchemaWithTypes(edited, fileTypesPath, 'ConfigFile');
    expect(mismatches.join('\n')).toContain(expected);
  });

  it.each([
    [
      'an optional marker',
      '  secret?: string;',
      '  secret: string;',
      'ConfigFile.security.secret: optional in the schema but not optional in TypeScript',
    ],
    [
      'a nullable type',
      '  logo_url: string | null;',
      '  logo_url: string;',
      'ConfigFile.branding.logo_url: type is null | string',
    ],
    [
      'an enum literal',
      "  role: 'user' | 'admin';",
      "  role: 'user' | 'admin' | 'owner';",
      'ConfigFile.users[].role: enum is',
    ],
    [
      'a union member removed',
      '  { provider: string; claim: string; value: string } | { provider: string; team: string };',
      '  { provider: string; claim: string; value: string };',
      'ConfigFile.groups[].upstream[]: the oneOf shape { provider, team } of the schema has no TypeScript union member with these properties',
    ],
    [
      'a oneOf answered by a type that is not an object',
      '  { provider: string; claim: string; value: string } | { provider: string; team: string };',
      '  string | { provider: string; team: string };',
      'ConfigFile.groups[].upstream[]: the schema is a oneOf of object shapes but TypeScript has string',
    ],
    [
      'a map',
      '  html_variables: Record<string, string>;',
      '  html_variables: { a: string };',
      'ConfigFile.frontend.html_variables: the schema is a map',
    ],
  ])('TypeScript edit: %s', (_name, from, to, expected) => {
    const mismatches = compareSchemaWithTypes(schema, editedFileTypes(from, to), 'ConfigFile');
    expect(mismatches.join('\n')).toContain(expected);
  });
});

describe('docs/configuration.md', () => {
  it('lists every key of the schema', () => {
    const doc = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const missing: string[] = [];
    const walk = (node: JsonSchema, at: string) => {
      for (const [name, child] of Object.entries(node.properties ?? {})) {
        const key = at === '' ? name : `${at}.${name}`;
        if (child.properties) walk(child, key);
        else if (child.items?.properties || child.items?.oneOf) {
          if (!doc.includes(`\`${key}[]`)) missing.push(key);
          for (const shape of child.items.oneOf ?? [child.items]) walk(shape, `${key}[]`);
        } else if (!doc.includes(`\`${key}\``)) missing.push(key);
      }
    };
    walk(schema, '');
    expect(missing).toEqual([]);
  });
});
