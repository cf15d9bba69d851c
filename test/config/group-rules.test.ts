import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeSchemaError, patternMeanings } from '../../src/config/describe-schema-error.js';
import { configSchemaUrl } from '../../src/config/check-shape.js';
import { problemLines, secretLine, yaml } from './load-text.js';

const github =
  '  - { id: gh, type: github, client_id: a, client_secret: b, scopes: [read:user, user:email, read:org] }';
const corp =
  '  - { id: corp, type: generic_oauth, display_name: Corp, authorization_url: "https://sso.example.com/a", token_url: "https://sso.example.com/t", client_id: a, client_secret: b }';
const users = [
  'users:',
  '  - { sub: alice, email: alice@example.com }',
  '  - { sub: bob, email: Bob@Example.com, groups: [dev] }',
];
const spa = (access: string) =>
  `  - { client_id: spa, token_endpoint_auth_method: none, redirect_uris: ["http://localhost/cb"], access: ${access} }`;

// One row per rule of docs/configuration.md "Rules" about groups: a file that passes it, one that breaks it.
describe.each([
  {
    rule: 'unique group id',
    good: yaml(secretLine, 'groups:', '  - id: sre', '  - id: dev'),
    bad: yaml(secretLine, 'groups:', '  - id: sre', '  - id: dev', '  - id: sre'),
    expected: ['idp.yaml:5:9: groups[2].id: duplicate id: groups[0] already uses it'],
  },
  {
    rule: 'a group id is lower-case letters, digits, ".", "_" or "-", 1–64 characters',
    good: yaml(secretLine, 'groups:', '  - id: sre.on-call_2', `  - id: ${'a'.repeat(64)}`, '  - id: 0ps'),
    bad: yaml(
      secretLine,
      'groups:',
      '  - id: site reliability',
      `  - id: ${'a'.repeat(200)}`,
      '  - id: SRE',
      '  - id: .hidden',
      '  - id: ""',
      '  - id: sre/dev',
    ),
    expected: [
      "idp.yaml:3:9: groups[0].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it contains white space)",
      "idp.yaml:4:9: groups[1].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it is 200 characters long)",
      "idp.yaml:5:9: groups[2].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it contains upper-case letters)",
      "idp.yaml:6:9: groups[3].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it starts with '.')",
      "idp.yaml:7:9: groups[4].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it is empty)",
      "idp.yaml:8:9: groups[5].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it contains other characters)",
    ],
  },
  {
    rule: 'users[].groups names groups of the file',
    good: yaml(secretLine, 'groups: [{ id: dev }]', ...users),
    bad: yaml(secretLine, 'groups: [{ id: sre }]', ...users),
    expected: ['idp.yaml:5:50: users[1].groups[0]: is not a group of this file (groups[].id)'],
  },
  {
    rule: 'clients[].access.groups names groups of the file',
    good: yaml(
      secretLine,
      'groups: [{ id: sre }, { id: dev }]',
      'clients:',
      spa('{ groups: [sre, dev], roles: [admin] }'),
    ),
    bad: yaml(secretLine, 'groups: [{ id: sre }, { id: dev }]', 'clients:', spa('{ groups: [sre, devs] }')),
    expected: [
      'idp.yaml:4:121: clients[0].access.groups[1]: is not a group of this file (groups[].id) (did you mean "dev"?)',
    ],
  },
  {
    rule: 'groups[].members are config users, by sub or e-mail (case-insensitive)',
    good: yaml(
      secretLine,
      'groups:',
      '  - { id: dev }',
      '  - { id: sre, members: [alice, bob@example.COM] }',
      ...users,
    ),
    bad: yaml(secretLine, 'groups:', '  - { id: dev, members: [alicia, carol@example.com] }', ...users),
    expected: [
      'idp.yaml:3:26: groups[0].members[0]: is not a config user: name one by users[].sub or users[].email (did you mean "alice"?) (database users join groups through the admin API)',
      'idp.yaml:3:34: groups[0].members[1]: is not a config user: name one by users[].sub or users[].email (database users join groups through the admin API)',
    ],
  },
  {
    rule: 'groups[].upstream[].provider is an identity provider of the file',
    good: yaml(
      secretLine,
      'identity_providers:',
      corp,
      'groups:',
      '  - { id: sre, upstream: [{ provider: corp, claim: groups, value: sre }] }',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      corp,
      'groups:',
      '  - { id: sre, upstream: [{ provider: crop, claim: groups, value: sre }] }',
    ),
    expected: [
      'idp.yaml:5:39: groups[0].upstream[0].provider: is not an identity provider of this file (identity_providers[].id) (did you mean "corp"?)',
    ],
  },
  {
    rule: 'a claim rule needs an OpenID Connect or generic upstream',
    good: yaml(
      secretLine,
      'identity_providers:',
      '  - { id: google, type: google, client_id: a, client_secret: b }',
      'groups:',
      '  - { id: sre, upstream: [{ provider: google, claim: hd, value: example.com }] }',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      github,
      'groups:',
      '  - { id: sre, upstream: [{ provider: gh, claim: groups, value: sre }] }',
    ),
    expected: [
      'idp.yaml:5:50: groups[0].upstream[0].claim: identity_providers[0] is of type github, which asserts teams, not claims: map a team with { provider, team: org/team-slug }',
    ],
  },
  {
    rule: 'a team rule needs a github upstream',
    good: yaml(
      secretLine,
      'identity_providers:',
      github,
      'groups:',
      '  - { id: sre, upstream: [{ provider: gh, team: acme/sre }] }',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      corp,
      'groups:',
      '  - { id: sre, upstream: [{ provider: corp, team: acme/sre }] }',
    ),
    expected: [
      'idp.yaml:5:51: groups[0].upstream[0].team: a team needs a github provider, and identity_providers[0] is of type generic_oauth: map one of its claims with { provider, claim, value }',
    ],
  },
  {
    rule: 'a team rule needs read:org in the scopes of its github provider, once per provider',
    good: yaml(
      secretLine,
      'identity_providers:',
      github,
      'groups:',
      '  - { id: sre, upstream: [{ provider: gh, team: acme/sre }] }',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      '  - { id: gh, type: github, client_id: a, client_secret: b, scopes: [read:user, user:email] }',
      '  - { id: ghe, type: github, client_id: a, client_secret: b }',
      'groups:',
      '  - { id: sre, upstream: [{ provider: gh, team: acme/sre }, { provider: ghe, team: acme/sre }] }',
      '  - { id: dev, upstream: [{ provider: gh, team: acme/dev }] }',
    ),
    expected: [
      'idp.yaml:3:69: identity_providers[0].scopes: lacks read:org, which groups[0].upstream[0] needs: GitHub shows team membership only with read:org',
      'idp.yaml:4:5: identity_providers[1]: its default scopes (read:user, user:email) lack read:org, which groups[0].upstream[1] needs: GitHub shows team membership only with read:org; set scopes: [read:user, user:email, read:org]',
    ],
  },
  {
    rule: 'an upstream rule has one of the two shapes',
    good: yaml(
      secretLine,
      'identity_providers:',
      github,
      corp,
      'groups:',
      '  - id: sre',
      '    upstream:',
      '      - { provider: corp, claim: groups, value: sre }',
      '      - { provider: gh, team: acme/sre }',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      github,
      corp,
      'groups:',
      '  - id: sre',
      '    upstream:',
      '      - { provider: corp }',
      '      - { provider: gh, team: acme/sre, claim: groups }',
      '      - { provider: corp, claim: groups }',
      '      - { provider: gh, team: "acme sre" }',
      '      - sre',
      '      - [corp, groups, sre]',
      '      - ~',
      '      - { provider: 5, team: acme/sre }',
    ),
    expected: [
      'idp.yaml:8:9: groups[0].upstream[0]: must be written as one of { provider, claim, value } or { provider, team }',
      'idp.yaml:9:9: groups[0].upstream[1]: must be written as one of { provider, claim, value } or { provider, team }',
      'idp.yaml:10:9: groups[0].upstream[2]: missing required key "value"',
      'idp.yaml:11:31: groups[0].upstream[3].team: must be a GitHub team written organization/team-slug (such as acme/sre)',
      'idp.yaml:12:9: groups[0].upstream[4]: must be written as one of { provider, claim, value } or { provider, team }',
      'idp.yaml:13:9: groups[0].upstream[5]: must be written as one of { provider, claim, value } or { provider, team }',
      'idp.yaml:14:9: groups[0].upstream[6]: must be written as one of { provider, claim, value } or { provider, team }',
      'idp.yaml:15:21: groups[0].upstream[7].provider: must be a string, not the number 5',
    ],
  },
])('rule: $rule', ({ good, bad, expected }) => {
  it('passes a file that follows it', () => {
    expect(problemLines(good)).toEqual([]);
  });
  it('reports a file that breaks it, at the exact place', () => {
    expect(problemLines(bad)).toEqual(expected);
  });
});

describe('members named twice are warnings, and the file stays valid', () => {
  it.each([
    [
      'twice in members',
      '  - { id: dev, members: [alice, alice] }',
      'idp.yaml:3:33: warning: groups[0].members[1]: names users[0] again: groups[0].members[0] already does',
    ],
    [
      'by sub and by e-mail',
      '  - { id: dev, members: [alice, ALICE@example.com] }',
      'idp.yaml:3:33: warning: groups[0].members[1]: names users[0] again: groups[0].members[0] already does',
    ],
    [
      'in members and in users[].groups',
      '  - { id: dev, members: [bob] }',
      'idp.yaml:3:26: warning: groups[0].members[0]: names users[1], who is a member already through users[1].groups[0]',
    ],
  ])('%s', (_name, group, expected) => {
    expect(problemLines(yaml(secretLine, 'groups:', group, ...users))).toEqual([expected]);
  });
});

describe('a config with unknown groups, users and providers and bad ids', () => {
  it('reports every location at once, in file order', () => {
    const text = yaml(
      secretLine,
      'identity_providers:',
      github,
      'groups:',
      '  - id: "site reliability"',
      `  - id: ${'x'.repeat(200)}`,
      '  - id: dev',
      '    members: [alice, nobody]',
      '    upstream: [{ provider: gitlab, team: acme/dev }]',
      ...users,
      '  - { sub: carol, email: carol@example.com, groups: [ops] }',
      'clients:',
      spa('{ groups: [sre] }'),
    );
    expect(problemLines(text)).toEqual([
      "idp.yaml:5:9: groups[0].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it contains white space)",
      "idp.yaml:6:9: groups[1].id: must be lower-case letters, digits, '.', '_' or '-', 1–64 characters, starting with a letter or digit (it is 200 characters long)",
      'idp.yaml:8:22: groups[2].members[1]: is not a config user: name one by users[].sub or users[].email (database users join groups through the admin API)',
      'idp.yaml:9:28: groups[2].upstream[0].provider: is not an identity provider of this file (identity_providers[].id)',
      'idp.yaml:13:54: users[2].groups[0]: is not a group of this file (groups[].id)',
      'idp.yaml:15:116: clients[0].access.groups[0]: is not a group of this file (groups[].id)',
    ]);
  });
});

describe('schema patterns', () => {
  it('each has a plain-language meaning (src/config/describe-schema-error.ts)', () => {
    const text = readFileSync(configSchemaUrl, 'utf8');
    const patterns = [...text.matchAll(/"pattern": ("(?:[^"\\]|\\.)*")/g)].map(
      ([, json]) => JSON.parse(json) as string,
    );
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter((pattern) => !(pattern in patternMeanings))).toEqual([]);
  });

  it('without a meaning, are named as they are', () => {
    const described = describeSchemaError({
      keyword: 'pattern',
      instancePath: '/x',
      schemaPath: '#/properties/x/pattern',
      params: { pattern: '^x+$' },
      data: 'y',
    });
    expect(described.message).toBe('must match the pattern ^x+$');
  });
});

describe('describeSchemaError on shapes the config schema does not have (yet)', () => {
  it('describes a oneOf branch that is not an object by its type', () => {
    const described = describeSchemaError({
      keyword: 'oneOf',
      instancePath: '/x',
      schemaPath: '#/properties/x/oneOf',
      params: { passingSchemas: null },
      schema: [{ type: 'string' }, { type: 'object', properties: { a: {} } }],
      data: 1,
    });
    expect(described.message).toBe('must be written as one of a string or { a }');
  });

  it('explains a group id pattern failure without a string as "empty"', () => {
    const described = describeSchemaError({
      keyword: 'pattern',
      instancePath: '/x',
      schemaPath: '#/properties/x/pattern',
      params: { pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' },
      data: 5,
    });
    expect(described.message).toMatch(/\(it is empty\)$/);
  });
});
