import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Chalk } from 'chalk';
import { CliError, createCapturedOutput } from '../../src/cli/output.js';
import { loadCommandConfig } from '../../src/cli/load-command-config.js';

/** `idp validate` in process; through bin/idp: validate.process.test.ts. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const secret = 'security: { secret: "0123456789abcdef0123456789abcdef" }';
const files = {
  'valid.yaml': `${secret}\nusers:\n  - sub: a\n    email: a@example.com\n`,
  'warning.yaml': 'server: { port: 8080 }\n',
  'invalid.yaml': `${secret}\nserver:\n  port: eighty\nclients:\n  - client_id: web\n    redirect_uri: [https://app.example.com/cb]\n`,
  'comma, colon: name.yaml': `${secret}\nserver: { port: 0 }\n`,
  'cycle.yaml': `${secret}\nserver: &s\n  <<: *s\n`,
  'secret-syntax.yaml': `security:\n  secret: |S3CRET-MARKER\n    x\n`,
  // Issue 23, bad input: unknown groups, users and providers, a group id with spaces and one of 200 characters.
  'access.yaml': [
    secret,
    'identity_providers:',
    '  - { id: github, type: github, client_id: a, client_secret: b }',
    'groups:',
    '  - id: site reliability',
    `  - id: ${'d'.repeat(200)}`,
    '  - id: ops',
    '    members: [alice, mallory@example.com]',
    '    upstream:',
    '      - { provider: gitlab, team: acme/ops }',
    '      - { provider: github, team: acme/ops }',
    'users:',
    '  - { sub: alice, email: alice@example.com, groups: [ops, dev] }',
    'clients:',
    '  - client_id: grafana',
    '    client_secret: s3cret',
    '    redirect_uris: [https://grafana.example.com/login/generic_oauth]',
    '    access: { groups: [sre] }',
    '',
  ].join('\n'),
};
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
writeFileSync(
  path.join(dir, 'image.yaml'),
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
);
const huge = openSync(path.join(dir, 'huge.yaml'), 'w');
ftruncateSync(huge, 16 * 1024 * 1024 + 1);
closeSync(huge);

async function run(args: string[], env: Record<string, string> = {}) {
  const output = createCapturedOutput();
  const code = await main(args, { output, env, cwd: dir });
  return { code, stdout: output.stdout, stderr: output.stderr };
}

describe('idp validate (in process)', () => {
  it('exits 0 for a valid file and says so', async () => {
    expect(await run(['validate', '-c', 'valid.yaml'])).toEqual({ code: 0, stdout: ['valid.yaml: valid'], stderr: [] });
  });

  it('prints warnings but still exits 0', async () => {
    const result = await run(['validate', '--config', 'warning.yaml']);
    expect(result.code).toBe(0);
    expect(result.stderr).toEqual([expect.stringMatching(/^warning\.yaml: warning: security: no security\.secret/)]);
    expect(result.stdout).toEqual(['warning.yaml: valid (1 warning)']);
  });

  it('prints every problem as one line and a summary, exit 1', async () => {
    const result = await run(['validate', '-c', 'invalid.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      'invalid.yaml:3:9: server.port: must be a whole number, not a string',
      'invalid.yaml:5:5: clients[0]: needs client_secret or client_secret_hash (token_endpoint_auth_method client_secret_basic); use token_endpoint_auth_method none for a public client',
      'invalid.yaml:5:5: clients[0]: needs at least one redirect_uris entry to use the authorization_code grant',
      'invalid.yaml:6:5: clients[0].redirect_uri: unknown key "redirect_uri" (did you mean "redirect_uris"?)',
      'invalid.yaml: invalid: 4 errors',
    ]);
    expect(result.stdout).toEqual([]);
  });

  it('prints every located error of groups, members, upstream providers and access at once, exit 1', async () => {
    const groupId =
      "must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit";
    const result = await run(['validate', '-c', 'access.yaml']);
    expect(result).toEqual({
      code: 1,
      stdout: [],
      stderr: [
        'access.yaml:3:5: identity_providers[0]: its default scopes (read:user, user:email) lack read:org, which groups[2].upstream[1] needs: GitHub shows team membership only with read:org; set scopes: [read:user, user:email, read:org]',
        `access.yaml:5:9: groups[0].id: ${groupId} (it contains white space)`,
        `access.yaml:6:9: groups[1].id: ${groupId} (it is 200 characters long)`,
        'access.yaml:8:15: warning: groups[2].members[0]: names users[0], who is a member already through users[0].groups[0]',
        'access.yaml:8:22: groups[2].members[1]: is not a config user: name one by users[].sub or users[].email (database users join groups through the admin API)',
        'access.yaml:10:21: groups[2].upstream[0].provider: is not an identity provider of this file (identity_providers[].id) (did you mean "github"?)',
        'access.yaml:13:59: users[0].groups[1]: is not a group of this file (groups[].id)',
        'access.yaml:18:24: clients[0].access.groups[0]: is not a group of this file (groups[].id)',
        'access.yaml: invalid: 7 errors, 1 warning',
      ],
    });
  });

  it('finds the file through $IDP_CONFIG', async () => {
    expect((await run(['validate'], { IDP_CONFIG: 'invalid.yaml' })).code).toBe(1);
  });

  it('reports an unreadable file as one line, exit 1', async () => {
    const result = await run(['validate', '-c', 'nope.yaml']);
    expect(result).toEqual({
      code: 1,
      stdout: [],
      stderr: ['nope.yaml: cannot read the config file: no such file', 'nope.yaml: invalid: 1 error'],
    });
  });

  it('prints stable JSON with --format json', async () => {
    const result = await run(['validate', '-c', 'invalid.yaml', '--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout.join('\n'));
    expect(Object.keys(report)).toEqual(['valid', 'file', 'errors', 'warnings']);
    expect(report.valid).toBe(false);
    expect(report.errors[0]).toEqual({
      file: 'invalid.yaml',
      line: 3,
      column: 9,
      path: 'server.port',
      message: 'must be a whole number, not a string',
    });
    expect(report.errors).toHaveLength(4);
    expect(report.warnings).toEqual([]);
    const valid = await run(['validate', '-c', 'warning.yaml', '--format', 'json']);
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout.join('\n'))).toMatchObject({
      valid: true,
      errors: [],
      warnings: [{ path: 'security', line: null }],
    });
  });

  it('prints GitHub workflow annotations with --format github, escaping properties', async () => {
    const result = await run(['validate', '-c', 'invalid.yaml', '--format', 'github']);
    expect(result.code).toBe(1);
    expect(result.stdout[0]).toBe(
      '::error file=invalid.yaml,line=3,col=9,title=server.port::must be a whole number, not a string',
    );
    expect(result.stdout).toHaveLength(5);
    const odd = await run(['validate', '-c', 'comma, colon: name.yaml', '--format', 'github']);
    expect(odd.stdout[0]).toBe(
      '::error file=comma%2C colon%3A name.yaml,line=2,col=17,title=server.port::must be at least 1',
    );
    const warning = await run(['validate', '-c', 'warning.yaml', '--format', 'github']);
    expect(warning.stdout[0]).toMatch(/^::warning file=warning\.yaml,title=security::no security\.secret/);
  });

  const cycle = {
    file: 'cycle.yaml',
    line: 3,
    column: 7,
    path: '',
    message: 'an alias (*name) inside the value it names: that value would contain itself without end',
  };

  it('reports an alias inside its own anchor as one located problem in every format', async () => {
    expect(await run(['validate', '-c', 'cycle.yaml'])).toEqual({
      code: 1,
      stdout: [],
      stderr: [`cycle.yaml:3:7: ${cycle.message}`, 'cycle.yaml: invalid: 1 error'],
    });
    const json = await run(['validate', '-c', 'cycle.yaml', '--format', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout.join('\n'))).toEqual({
      valid: false,
      file: 'cycle.yaml',
      errors: [cycle],
      warnings: [],
    });
    const github = await run(['validate', '-c', 'cycle.yaml', '--format', 'github']);
    expect(github.stdout).toEqual([
      `::error file=cycle.yaml,line=3,col=7,title=idp config::${cycle.message}`,
      'cycle.yaml: invalid: 1 error',
    ]);
  });

  it.each([
    [
      'image.yaml',
      {
        line: 1,
        column: 1,
        message: 'not UTF-8 text: a config file is YAML saved as UTF-8 (is this a binary file, or another encoding?)',
      },
    ],
    ['huge.yaml', { line: null, column: null, message: 'the config file is larger than 16 MiB, the most idp reads' }],
  ])('reports %s as one problem, in the documented JSON shape', async (file, problem) => {
    const result = await run(['validate', '-c', file, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.join('\n'))).toEqual({
      valid: false,
      file,
      errors: [{ file, path: '', ...problem }],
      warnings: [],
    });
  });

  it('never quotes the text around a YAML syntax error', async () => {
    for (const format of ['text', 'json', 'github']) {
      const result = await run(['validate', '-c', 'secret-syntax.yaml', '--format', format]);
      expect(result.code).toBe(1);
      expect([...result.stdout, ...result.stderr].join('\n')).not.toContain('S3CRET-MARKER');
    }
  });

  it('checks the built-in defaults when there is no config file, and says so', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'idp-validate-none-'));
    try {
      const output = createCapturedOutput();
      expect(await main(['validate'], { output, env: {}, cwd: empty })).toBe(0);
      expect(output.stdout).toEqual([
        'no config file (-c, $IDP_CONFIG, ./idp.yaml); the built-in defaults: valid (1 warning)',
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses an unknown --format as a usage error (exit 2)', async () => {
    const result = await run(['validate', '-c', 'valid.yaml', '--format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual(['error: unknown --format "xml" (expected text, json, github)']);
  });
});

describe('idp validate on a TTY', () => {
  it('colours errors red, warnings yellow and the verdict', async () => {
    const output = { ...createCapturedOutput(), color: new Chalk({ level: 1 }), isTTY: true };
    const invalid = await main(['validate', '-c', 'invalid.yaml'], { output, env: {}, cwd: dir });
    expect(invalid).toBe(1);
    expect(output.stderr[0]).toBe(
      '\u001b[31minvalid.yaml:3:9: server.port: must be a whole number, not a string\u001b[39m',
    );
    expect(output.stderr.at(-1)).toBe('invalid.yaml: \u001b[31minvalid\u001b[39m: 4 errors');
    await main(['validate', '-c', 'warning.yaml'], { output, env: {}, cwd: dir });
    expect(output.stderr.at(-1)).toMatch(/^\u001b\[33mwarning\.yaml: warning: security:/);
    expect(output.stdout.at(-1)).toBe('warning.yaml: \u001b[32mvalid\u001b[39m (1 warning)');
  });
});

describe('loadCommandConfig (the config of migrate, diff, apply, serve)', () => {
  const ctx = (env: Record<string, string> = {}) => ({
    output: createCapturedOutput(),
    env,
    cwd: dir,
    stdin: process.stdin,
  });

  it('returns the runtime config and prints warnings on stderr', async () => {
    const context = ctx();
    const config = await loadCommandConfig(context, 'warning.yaml');
    expect(config.file).toBe(path.join(dir, 'warning.yaml'));
    expect(context.output.stderr).toEqual([
      expect.stringMatching(/^warning\.yaml: warning: security: no security\.secret/),
    ]);
  });

  it('prints every problem and fails with one line naming the file and the count', async () => {
    const context = ctx();
    const failure = await loadCommandConfig(context, 'invalid.yaml').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliError);
    expect(failure).toMatchObject({ message: 'invalid.yaml: configuration is invalid (4 problems)', exitCode: 1 });
    expect(context.output.stderr).toHaveLength(4);
  });

  it('fails with one line for an unreadable file', async () => {
    const context = ctx({ IDP_CONFIG: 'nope.yaml' });
    await expect(loadCommandConfig(context, undefined)).rejects.toThrow(
      'nope.yaml: configuration is invalid (1 problem)',
    );
    expect(context.output.stderr).toEqual(['nope.yaml: cannot read the config file: no such file']);
  });

  it('uses the built-in defaults when there is no file', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'idp-noconfig-'));
    try {
      const config = await loadCommandConfig({ ...ctx(), cwd: empty }, undefined);
      expect(config.database.filename).toBe(path.join(empty, 'idp.sqlite'));
      expect(config.server.baseUrl).toBe('http://localhost:8080');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
