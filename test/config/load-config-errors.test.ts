import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  chmodSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatProblem, loadConfig } from '../../src/config/index.js';
import { errorLines, load, problemLines, secretLine, yaml } from './load-text.js';

// Each class of bad input of issue 2, with the exact line a user reads.
describe('each class of error is located by file:line:column and config path', () => {
  it.each([
    [
      'YAML syntax error',
      yaml('server:', '  port: [8080', 'clients: []'),
      [
        'idp.yaml:3:1: YAML syntax error: a [ ] list is not closed by its "]", or its lines are not indented more than its key',
      ],
    ],
    [
      'a second YAML document',
      yaml('server: {}', '---', 'users: []'),
      ['idp.yaml:2:1: YAML syntax error: the file must hold one document, but a second one starts here (after ---)'],
    ],
    [
      'tab indentation',
      yaml('server:', '\tport: 1'),
      ['idp.yaml:2:1: YAML syntax error: tabs are not allowed as indentation (use spaces)'],
    ],
    [
      'duplicate YAML key',
      yaml('server:', '  port: 1', '  port: 2'),
      ['idp.yaml:3:3: duplicate key: a key may appear only once in a mapping'],
    ],
    [
      'wrong type',
      yaml('server:', '  port: eighty'),
      ['idp.yaml:2:9: server.port: must be a whole number, not a string'],
    ],
    [
      'wrong type (list for mapping)',
      yaml('server: [1, 2]'),
      ['idp.yaml:1:9: server: must be a mapping (key: value), not a list'],
    ],
    [
      'a document that is not a mapping',
      yaml('- 1', '- 2'),
      ['idp.yaml:1:1: must be a mapping (key: value), not a list'],
    ],
    [
      'unknown top-level key',
      yaml('sever:', '  port: 1'),
      ['idp.yaml:1:1: sever: unknown key "sever" (did you mean "server"?)'],
    ],
    [
      'unknown nested key with a suggestion',
      yaml(
        'clients:',
        '  - client_id: a',
        '    token_endpoint_auth_method: none',
        '    redirect_uri: [http://localhost/cb]',
      ),
      [
        'idp.yaml:2:5: clients[0]: needs at least one redirect_uris entry to use the authorization_code grant',
        'idp.yaml:4:5: clients[0].redirect_uri: unknown key "redirect_uri" (did you mean "redirect_uris"?)',
      ],
    ],
    [
      'a device client without the openid scope (it needs no redirect URI)',
      yaml(
        'clients:',
        '  - client_id: tv',
        '    token_endpoint_auth_method: none',
        '    grant_types: [urn:ietf:params:oauth:grant-type:device_code]',
        '    scopes: [email]',
      ),
      ['idp.yaml:5:13: clients[0].scopes: needs openid to use the urn:ietf:params:oauth:grant-type:device_code grant'],
    ],
    [
      'unknown key without a close match',
      yaml('server:', '  colour: red'),
      ['idp.yaml:2:3: server.colour: unknown key "colour"'],
    ],
    [
      'missing required key',
      yaml('users:', '  - email: a@example.com'),
      ['idp.yaml:2:5: users[0]: missing required key "sub"'],
    ],
    [
      'enum with a suggestion',
      yaml('users:', '  - sub: a', '    email: a@example.com', '    role: admn'),
      ['idp.yaml:4:11: users[0].role: must be one of user, admin (did you mean "admin"?)'],
    ],
    ['bound', yaml('server:', '  port: 70000'), ['idp.yaml:2:9: server.port: must be at most 65535']],
    [
      'trust_proxy of another type',
      yaml('server:', '  trust_proxy: yes'),
      ['idp.yaml:2:16: server.trust_proxy: must be true or false or a whole number or a list, not a string'],
    ],
    [
      'trust_proxy: negative hops',
      yaml('server:', '  trust_proxy: -1'),
      ['idp.yaml:2:16: server.trust_proxy: must be at least 0'],
    ],
    [
      'trust_proxy: a list of other than text',
      yaml('server:', '  trust_proxy: [1, ""]'),
      [
        'idp.yaml:2:17: server.trust_proxy[0]: must be a string, not the number 1',
        'idp.yaml:2:20: server.trust_proxy[1]: must not be empty',
      ],
    ],
    [
      'short secret',
      yaml('security:', '  secret: short'),
      ['idp.yaml:2:11: security.secret: must be at least 32 characters long'],
    ],
    [
      'duplicate id',
      yaml('users:', '  - sub: alice', '    email: a@example.com', '  - sub: alice', '    email: b@example.com'),
      ['idp.yaml:4:10: users[1].sub: duplicate sub: users[0] already uses it'],
    ],
    [
      'unset variable',
      yaml('server:', '  base_url: ${BASE_URL}'),
      [
        'idp.yaml:2:13: server.base_url: environment variable BASE_URL is not set (write ${BASE_URL:-default} to give a default)',
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(errorLines(text)).toEqual(expected);
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
      'idp.yaml:8:10: users[1].sub: duplicate sub: users[0] already uses it',
      'idp.yaml:9:12: users[1].email: duplicate email (compared case-insensitively): users[0] already uses it',
      'idp.yaml:11:17: scheduler.cleanup_cron: is not a valid cron expression: write 5 fields (minute hour day month weekday, such as "0 2 * * *"), 6 with seconds first, or a nickname such as @daily',
    ]);
  });

  it('does not repeat an unset variable as a shape problem of the same value', () => {
    expect(errorLines(yaml('server:', '  port: ${PORT}'))).toEqual([
      'idp.yaml:2:9: server.port: environment variable PORT is not set (write ${PORT:-default} to give a default)',
    ]);
  });

  it('never echoes a string value in a type error (it may be an expanded secret)', () => {
    const lines = errorLines(yaml('security: ${S}'), { S: 'super-secret-value' });
    expect(lines).toEqual(['idp.yaml:1:11: security: must be a mapping (key: value), not a string']);
  });

  it('refuses an alias bomb ("billion laughs") with one problem at the alias that goes past the limit', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
      );
    // Up to line 5 the aliases add 123,400 values; each *e adds 111,110 more, and the 8th passes 1,000,000.
    expect(errorLines(yaml(...bomb))).toEqual([
      'idp.yaml:6:36: expanding the aliases (*name) up to here would add more than 1,000,000 values to the file, the most idp accepts (aliases of aliases multiply)',
    ]);
  });
});

describe('anchors, aliases and merges', () => {
  const cycle = 'an alias (*name) inside the value it names: that value would contain itself without end';
  it.each([
    ['a list that contains itself', yaml('a: &x [*x]'), [`idp.yaml:1:8: ${cycle}`]],
    ['a mapping that contains itself', yaml('a: &x { b: *x }'), [`idp.yaml:1:12: ${cycle}`]],
    ['a mapping that merges itself', yaml('a: &x', '  <<: *x', '  b: 1'), [`idp.yaml:2:7: ${cycle}`]],
    ['a cycle through a nested anchor', yaml('a: &x', '  b: &y', '    <<: *x', 'c: *y'), [`idp.yaml:3:9: ${cycle}`]],
    ['a cycle deep inside a list', yaml('servers: &s', '  - [1, [2, [3, *s]]]'), [`idp.yaml:2:17: ${cycle}`]],
    [
      'aliases that nest values too deep for later phases',
      yaml(`a: &a ${'['.repeat(600)}${']'.repeat(600)}`, `b: ${'['.repeat(600)}*a${']'.repeat(600)}`),
      ['idp.yaml:2:604: values nested more than 1,000 levels deep (aliases expanded), the most idp accepts'],
    ],
    [
      'an alias before its anchor',
      yaml('server: *later', 'x: &later {}'),
      ['idp.yaml:1:9: an alias (*name) must name an anchor (&name) set before it'],
    ],
    [
      'a merge of a scalar',
      yaml('x: &x 1', 'server:', '  <<: *x'),
      ['idp.yaml:3:7: a merge (<<) takes a mapping, an alias of one (<<: *defaults) or a list of them'],
    ],
    [
      'a merge of a list of scalars',
      yaml('server:', '  <<: [1, 2]'),
      [
        'idp.yaml:2:8: a merge (<<) takes a mapping, an alias of one (<<: *defaults) or a list of them',
        'idp.yaml:2:11: a merge (<<) takes a mapping, an alias of one (<<: *defaults) or a list of them',
      ],
    ],
    [
      'a key written as a list',
      yaml('frontend:', '  html_variables:', '    ? [a, b]', '    : x'),
      ['idp.yaml:3:7: a key must be a plain value (text, a number, true or false), not a list or mapping'],
    ],
  ])('%s is one located problem', (_name, text, expected) => {
    expect(errorLines(text)).toEqual(expected);
  });

  it('reports nesting deeper than yaml reads as one problem', () => {
    expect(errorLines(yaml(`a: ${'['.repeat(5000)}${']'.repeat(5000)}`))).toEqual([
      expect.stringMatching(/^idp\.yaml:1:\d+: YAML syntax error: nested too deeply to be read$/),
    ]);
  });

  it("merges one anchor into thousands of clients (yaml's own alias count refused a thousand)", () => {
    const clients = [
      'clients:',
      '  - &spa { client_id: c0, token_endpoint_auth_method: none, redirect_uris: [http://localhost/cb] }',
    ];
    for (let i = 1; i < 3000; i++) clients.push(`  - { <<: *spa, client_id: c${i} }`);
    const result = load(yaml(secretLine, ...clients));
    expect(result.ok && result.config.clients.map((c) => c.clientId).slice(-2)).toEqual(['c2998', 'c2999']);
  });
});

describe('no message repeats the text of the file, which may be a secret', () => {
  const marker = 'S3CRET-MARKER';
  it.each([
    ['an unclosed double quote', yaml('security:', `  secret: "${marker}`)],
    ['an invalid escape', yaml(`security: { secret: "\\x${marker}" }`)],
    ['a block scalar header with extra characters', yaml('security:', `  secret: |${marker}`, '    x')],
    ['a stray bracket before a value', yaml('security:', `  secret: ]${marker}`)],
    ['an unknown directive', yaml(`%${marker} x`, '---', 'security: {}')],
    ['an unknown tag', yaml(`security: !${marker} x`)],
    ['an alias to no anchor', yaml('security:', `  secret: *${marker}`)],
    ['a key written as a list', yaml(`frontend: { html_variables: { [${marker}]: x } }`)],
    ['a "${" that is not a reference', yaml('security:', `  secret: "a\${${marker}}b"`)],
    ['a flow mapping inside a secret', yaml(`security: { secret: ${marker}: x }`)],
  ])('%s', (_name, text) => {
    const warned = vi.spyOn(process, 'emitWarning');
    try {
      const result = load(text);
      const lines = (result.ok ? result.warnings : result.problems).map(formatProblem);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toContain(marker);
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });
});

describe('no message repeats a value, which may be an expanded secret', () => {
  const env = { S: 'S3CRET-MARKER' };
  it.each([
    ['an enum', yaml('users:', '  - sub: a', '    email: a@example.com', '    role: ${S}')],
    [
      'a duplicate sub',
      yaml('users:', '  - { sub: "${S}", email: a@example.com }', '  - { sub: "${S}", email: b@example.com }'),
    ],
    [
      'a duplicate client_id',
      yaml(
        'clients:',
        '  - { client_id: "${S}", token_endpoint_auth_method: none, redirect_uris: [http://localhost/cb] }',
        '  - { client_id: "${S}", token_endpoint_auth_method: none, redirect_uris: [http://localhost/cb] }',
      ),
    ],
    ['a cron expression that croner refuses', yaml('scheduler:', '  cleanup_cron: "${S} * *"')],
    ['a default locale that is not offered', yaml('i18n: { default_locale: "${S}", locales: [en] }')],
    ['an offered locale', yaml('i18n: { default_locale: en, locales: ["${S}"] }')],
  ])('%s', (_name, text) => {
    const lines = problemLines(text, env);
    expect(lines.some((line) => !line.includes('warning:'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(env.S);
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

  const problemsOf = async (file: string) => {
    const result = await loadConfig({ file, env: {}, cwd: dir });
    return result.ok ? [] : result.problems.map(formatProblem);
  };

  it('a file over 16 MiB is one problem, found before reading it', async () => {
    // Sparse: the size is there at once, no 16 MiB is written.
    const handle = openSync(path.join(dir, 'huge.yaml'), 'w');
    ftruncateSync(handle, 16 * 1024 * 1024 + 1);
    closeSync(handle);
    expect(await problemsOf('huge.yaml')).toEqual([
      'huge.yaml: the config file is larger than 16 MiB, the most idp reads',
    ]);
  });

  it('a file of exactly 16 MiB is read', async () => {
    const handle = openSync(path.join(dir, 'limit.yaml'), 'w');
    ftruncateSync(handle, 16 * 1024 * 1024);
    closeSync(handle);
    expect(await problemsOf('limit.yaml')).toEqual([
      'limit.yaml:1:1: contains a NUL byte: a config file is YAML text (is this a binary file?)',
    ]);
  });

  it.skipIf(!existsSync('/dev/zero'))('a device without a size is read no further than 16 MiB', async () => {
    expect(await problemsOf('/dev/zero')).toEqual([
      '/dev/zero: the config file is larger than 16 MiB, the most idp reads',
    ]);
  });

  it.each([
    [
      'a PNG image',
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
        Buffer.from('IHDR SECRET-MARKER'),
      ]),
      'not UTF-8 text',
      '1:1',
    ],
    [
      'random bytes with NULs',
      Buffer.concat([Buffer.from('server: {}\nkey: SECRET-MARKER'), Buffer.from([0, 1, 2, 0xfe, 0, 0x80, 0x0a, 0xff])]),
      'contains a NUL byte',
      '2:19',
    ],
    [
      'Latin-1 text',
      Buffer.concat([Buffer.from('branding:\n  name: SECRET-MARKER Caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
      'not UTF-8 text',
      '2:26',
    ],
  ])('%s is one problem at its first offending byte, never echoing the bytes', async (_name, bytes, message, place) => {
    writeFileSync(path.join(dir, 'binary.yaml'), bytes);
    const problems = await problemsOf('binary.yaml');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^binary\\.yaml:${place}: ${message}: `));
    expect(problems[0]).not.toContain('SECRET-MARKER');
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file', async () => {
    const file = path.join(dir, 'locked.yaml');
    writeFileSync(file, secretLine);
    chmodSync(file, 0o000);
    const result = await loadConfig({ file: 'locked.yaml', env: {}, cwd: dir });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'locked.yaml: cannot read the config file: permission denied',
    ]);
  });
});
