import { mkdtempSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem, loadConfig } from '../../src/config/index.js';
import { errorLines, load, secretLine, yaml } from './load-text.js';

// Each class of bad input of issue 2, with the exact line a user reads.
describe('each class of error is located by file:line:column and config path', () => {
  it.each([
    [
      'YAML syntax error',
      yaml('server:', '  port: [8080', 'clients: []'),
      ['idp.yaml:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ],
    ['a second YAML document', yaml('server: {}', '---', 'users: []'), ['idp.yaml:2:1: YAML syntax error: the file must hold one document, but a second one starts here (after ---)']],
    ['tab indentation', yaml('server:', '\tport: 1'), ['idp.yaml:2:1: YAML syntax error: Tabs are not allowed as indentation']],
    ['duplicate YAML key', yaml('server:', '  port: 1', '  port: 2'), ['idp.yaml:3:3: duplicate key: a key may appear only once in a mapping']],
    ['wrong type', yaml('server:', '  port: eighty'), ['idp.yaml:2:9: server.port: must be a whole number, not a string']],
    ['wrong type (list for mapping)', yaml('server: [1, 2]'), ['idp.yaml:1:9: server: must be a mapping (key: value), not a list']],
    ['a document that is not a mapping', yaml('- 1', '- 2'), ['idp.yaml:1:1: must be a mapping (key: value), not a list']],
    ['unknown top-level key', yaml('sever:', '  port: 1'), ['idp.yaml:1:1: sever: unknown key "sever" (did you mean "server"?)']],
    [
      'unknown nested key with a suggestion',
      yaml('clients:', '  - client_id: a', '    token_endpoint_auth_method: none', '    redirect_uri: [http://localhost/cb]'),
      [
        'idp.yaml:2:5: clients[0]: needs at least one redirect_uris entry to use the authorization_code grant',
        'idp.yaml:4:5: clients[0].redirect_uri: unknown key "redirect_uri" (did you mean "redirect_uris"?)',
      ],
    ],
    ['unknown key without a close match', yaml('server:', '  colour: red'), ['idp.yaml:2:3: server.colour: unknown key "colour"']],
    ['missing required key', yaml('users:', '  - email: a@example.com'), ['idp.yaml:2:5: users[0]: missing required key "sub"']],
    ['enum with a suggestion', yaml('users:', '  - sub: a', '    email: a@example.com', '    role: admn'), ['idp.yaml:4:11: users[0].role: must be one of user, admin, not "admn" (did you mean "admin"?)']],
    ['bound', yaml('server:', '  port: 70000'), ['idp.yaml:2:9: server.port: must be at most 65535']],
    ['trust_proxy of another type', yaml('server:', '  trust_proxy: yes'), ['idp.yaml:2:16: server.trust_proxy: must be true or false or a whole number or a list, not a string']],
    ['trust_proxy: negative hops', yaml('server:', '  trust_proxy: -1'), ['idp.yaml:2:16: server.trust_proxy: must be at least 0']],
    ['trust_proxy: a list of other than text', yaml('server:', '  trust_proxy: [1, ""]'), ['idp.yaml:2:17: server.trust_proxy[0]: must be a string, not the number 1', 'idp.yaml:2:20: server.trust_proxy[1]: must not be empty']],
    ['short secret', yaml('security:', '  secret: short'), ['idp.yaml:2:11: security.secret: must be at least 32 characters long']],
    [
      'duplicate id',
      yaml('users:', '  - sub: alice', '    email: a@example.com', '  - sub: alice', '    email: b@example.com'),
      ['idp.yaml:4:10: users[1].sub: duplicate sub "alice": users[0] already uses it'],
    ],
    ['unset variable', yaml('server:', '  base_url: ${BASE_URL}'), ['idp.yaml:2:13: server.base_url: environment variable BASE_URL is not set (write ${BASE_URL:-default} to give a default)']],
  ])('%s', (_name, text, expected) => {
    expect(errorLines(`${text}`)).toEqual(expected);
  });

  it('reports every problem of a file in one run, in file order', () => {
    const text = yaml(
      'server:',
      '  port: "x"',
      '  base_url: ${MISSING}',
      'users:',
      '  - sub: a',
      '    email: a@example.com',
      '    pasword_hash: x',
      '  - sub: a',
      '    email: A@example.com',
      'scheduler:',
      '  cleanup_cron: "99 * * * *"',
    );
    expect(errorLines(text)).toEqual([
      'idp.yaml:2:9: server.port: must be a whole number, not a string',
      'idp.yaml:3:13: server.base_url: environment variable MISSING is not set (write ${MISSING:-default} to give a default)',
      'idp.yaml:7:5: users[0].pasword_hash: unknown key "pasword_hash" (did you mean "password_hash"?)',
      'idp.yaml:8:10: users[1].sub: duplicate sub "a": users[0] already uses it',
      'idp.yaml:9:12: users[1].email: duplicate email "A@example.com" (compared case-insensitively): users[0] already uses it',
      'idp.yaml:11:17: scheduler.cleanup_cron: is not a valid cron expression: Invalid value for minute: 99',
    ]);
  });

  it('does not repeat an unset variable as a shape problem of the same value', () => {
    expect(errorLines(yaml('server:', '  port: ${PORT}'))).toEqual(['idp.yaml:2:9: server.port: environment variable PORT is not set (write ${PORT:-default} to give a default)']);
  });

  it('never echoes a string value in a type error (it may be an expanded secret)', () => {
    const lines = errorLines(yaml('security: ${S}'), { S: 'super-secret-value' });
    expect(lines).toEqual(['idp.yaml:1:11: security: must be a mapping (key: value), not a string']);
  });

  it('refuses an alias bomb with a located problem instead of exhausting memory', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`);
    const result = load(yaml(...bomb));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0].message).toMatch(/alias|YAML/i);
  });
});

describe('files that cannot be read', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a missing file', 'missing.yaml', 'missing.yaml: cannot read the config file: no such file'],
    ['a directory', 'a-directory', 'a-directory: cannot read the config file: it is a directory, not a file'],
  ])('%s is one problem without a line', async (_name, file, expected) => {
    mkdirSync(path.join(dir, 'a-directory'), { recursive: true });
    const result = await loadConfig({ file, env: {}, cwd: dir });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map(formatProblem)).toEqual([expected]);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file', async () => {
    const file = path.join(dir, 'locked.yaml');
    writeFileSync(file, secretLine);
    chmodSync(file, 0o000);
    const result = await loadConfig({ file: 'locked.yaml', env: {}, cwd: dir });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual(['locked.yaml: cannot read the config file: permission denied']);
  });
});
