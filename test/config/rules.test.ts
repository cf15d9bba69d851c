import { describe, expect, it } from 'vitest';
import { problemLines, secretLine, validHash, yaml } from './load-text.js';

const user = (sub: string, email: string, extra: string[] = []) => [
  `  - sub: ${sub}`,
  `    email: "${email}"`,
  ...extra.map((l) => `    ${l}`),
];
const client = (lines: string[]) => lines.map((l, i) => (i === 0 ? `  - ${l}` : `    ${l}`));
const publicClient = [
  'client_id: spa',
  'token_endpoint_auth_method: none',
  'redirect_uris: [http://localhost:5173/cb]',
];

// One row per rule: a file that passes it, and one that breaks it with the exact line.
describe.each([
  {
    rule: 'unique user sub',
    good: yaml(secretLine, 'users:', ...user('a', 'a@example.com'), ...user('b', 'b@example.com')),
    bad: yaml(secretLine, 'users:', ...user('a', 'a@example.com'), ...user('a', 'b@example.com')),
    expected: ['idp.yaml:5:10: users[1].sub: duplicate sub: users[0] already uses it'],
  },
  {
    rule: 'unique e-mail, case-insensitive',
    good: yaml(secretLine, 'users:', ...user('a', 'a@example.com'), ...user('b', 'b@example.com')),
    bad: yaml(secretLine, 'users:', ...user('a', 'ann@example.com'), ...user('b', 'Ann@Example.COM')),
    expected: [
      'idp.yaml:6:12: users[1].email: duplicate email (compared case-insensitively): users[0] already uses it',
    ],
  },
  {
    rule: 'e-mail: no leading dot',
    good: yaml(secretLine, 'users:', ...user('a', 'first.last@example.com')),
    bad: yaml(secretLine, 'users:', ...user('a', '.ann@example.com')),
    expected: ['idp.yaml:4:12: users[0].email: must not start with a dot'],
  },
  {
    rule: 'e-mail: no consecutive dots',
    good: yaml(secretLine, 'users:', ...user('a', 'a.b@mail.example.com')),
    bad: yaml(secretLine, 'users:', ...user('a', 'a..b@example.com')),
    expected: ['idp.yaml:4:12: users[0].email: must not contain consecutive dots'],
  },
  {
    rule: 'e-mail: an address',
    good: yaml(secretLine, 'users:', ...user('a', 'a+tag@example.com')),
    bad: yaml(secretLine, 'users:', ...user('a', 'not an address')),
    expected: ['idp.yaml:4:12: users[0].email: must be an e-mail address (name@example.com)'],
  },
  {
    rule: 'password_hash is an argon2id PHC string',
    good: yaml(secretLine, 'users:', ...user('a', 'a@example.com', [`password_hash: "${validHash}"`])),
    bad: yaml(secretLine, 'users:', ...user('a', 'a@example.com', ['password_hash: hunter2'])),
    expected: [
      'idp.yaml:5:20: users[0].password_hash: must be an argon2id PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash) as printed by "idp hash-password", never a plaintext password',
    ],
  },
  {
    rule: 'password_hash: argon2i is not argon2id',
    good: yaml(
      secretLine,
      'users:',
      ...user('a', 'a@example.com', [`password_hash: "${validHash.replace('m=65536,p=4,t=3', 'm=65536,t=3,p=4')}"`]),
    ),
    bad: yaml(
      secretLine,
      'users:',
      ...user('a', 'a@example.com', [`password_hash: "${validHash.replace('argon2id', 'argon2i')}"`]),
    ),
    expected: [
      'idp.yaml:5:20: users[0].password_hash: must be an argon2id PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash) as printed by "idp hash-password", never a plaintext password',
    ],
  },
  {
    rule: 'unique client_id',
    good: yaml(
      secretLine,
      'clients:',
      ...client(publicClient),
      ...client([...publicClient.slice(1), 'client_id: spa2']),
    ),
    bad: yaml(secretLine, 'clients:', ...client(publicClient), ...client([...publicClient.slice(1), 'client_id: spa'])),
    expected: ['idp.yaml:8:16: clients[1].client_id: duplicate client_id: clients[0] already uses it'],
  },
  {
    rule: 'public client has no secret',
    good: yaml(secretLine, 'clients:', ...client(publicClient)),
    bad: yaml(secretLine, 'clients:', ...client([...publicClient, 'client_secret: s3cret'])),
    expected: [
      'idp.yaml:6:20: clients[0].client_secret: must not be set for a public client (token_endpoint_auth_method none)',
    ],
  },
  {
    rule: 'public client keeps PKCE',
    good: yaml(secretLine, 'clients:', ...client([...publicClient, 'require_pkce: true'])),
    bad: yaml(secretLine, 'clients:', ...client([...publicClient, 'require_pkce: false'])),
    expected: [
      'idp.yaml:6:19: clients[0].require_pkce: must be true for a public client (token_endpoint_auth_method none)',
    ],
  },
  {
    rule: 'confidential client has a secret',
    good: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: web', 'client_secret: s3cret', 'redirect_uris: [https://app.example.com/cb]']),
    ),
    bad: yaml(secretLine, 'clients:', ...client(['client_id: web', 'redirect_uris: [https://app.example.com/cb]'])),
    expected: [
      'idp.yaml:3:5: clients[0]: needs client_secret or client_secret_hash (token_endpoint_auth_method client_secret_basic); use token_endpoint_auth_method none for a public client',
    ],
  },
  {
    rule: 'secret or hash, not both',
    good: yaml(
      secretLine,
      'clients:',
      ...client([
        'client_id: web',
        `client_secret_hash: "${validHash}"`,
        'redirect_uris: [https://app.example.com/cb]',
      ]),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client([
        'client_id: web',
        'client_secret: s',
        `client_secret_hash: "${validHash}"`,
        'redirect_uris: [https://app.example.com/cb]',
      ]),
    ),
    expected: [
      'idp.yaml:5:25: clients[0].client_secret_hash: give either client_secret or client_secret_hash, not both',
    ],
  },
  {
    rule: 'redirect URI is absolute',
    good: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: spa', 'token_endpoint_auth_method: none', 'redirect_uris: [com.example.app:/callback]']),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: spa', 'token_endpoint_auth_method: none', 'redirect_uris: [/callback]']),
    ),
    expected: [
      'idp.yaml:5:21: clients[0].redirect_uris[0]: must be an absolute URL (such as https://app.example.com/callback)',
    ],
  },
  {
    rule: 'redirect URI has no fragment',
    good: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: spa', 'token_endpoint_auth_method: none', 'redirect_uris: [http://localhost/cb?x=1]']),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client([
        'client_id: spa',
        'token_endpoint_auth_method: none',
        'redirect_uris: [http://localhost/cb]',
        'post_logout_redirect_uris:',
        '  - http://localhost/#done',
      ]),
    ),
    expected: [
      'idp.yaml:7:9: clients[0].post_logout_redirect_uris[0]: must not contain a fragment (#…) (RFC 6749 §3.1.2)',
    ],
  },
  {
    rule: 'backchannel_logout_uri is https',
    good: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: https://app.example.com/logout?x=1']),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: http://app.example.com/bcl']),
    ),
    expected: [
      'idp.yaml:6:29: clients[0].backchannel_logout_uri: must use https (http only on a loopback host: 127.0.0.1, [::1] or localhost)',
    ],
  },
  {
    rule: 'backchannel_logout_uri may be http on loopback',
    good: yaml(secretLine, 'clients:', ...client([...publicClient, 'backchannel_logout_uri: "http://[::1]:8080/bcl"'])),
    bad: yaml(secretLine, 'clients:', ...client([...publicClient, 'backchannel_logout_uri: http://127.0.0.2/bcl'])),
    expected: [
      'idp.yaml:6:29: clients[0].backchannel_logout_uri: must use https (http only on a loopback host: 127.0.0.1, [::1] or localhost)',
    ],
  },
  {
    rule: 'backchannel_logout_uri is absolute',
    good: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: http://localhost:3000/bcl']),
    ),
    bad: yaml(secretLine, 'clients:', ...client([...publicClient, 'backchannel_logout_uri: /bcl'])),
    expected: [
      'idp.yaml:6:29: clients[0].backchannel_logout_uri: must be an absolute https URL (such as https://app.example.com/backchannel-logout)',
    ],
  },
  {
    rule: 'backchannel_logout_uri is not another scheme',
    good: yaml(secretLine, 'clients:', ...client([...publicClient, 'backchannel_logout_uri: http://127.0.0.1/bcl'])),
    bad: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: "ftp://app.example.com/bcl"']),
    ),
    expected: [
      'idp.yaml:6:29: clients[0].backchannel_logout_uri: must be an absolute https URL (such as https://app.example.com/backchannel-logout)',
    ],
  },
  {
    rule: 'backchannel_logout_uri has no fragment',
    good: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: https://app.example.com/bcl']),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client([...publicClient, 'backchannel_logout_uri: "https://app.example.com/bcl#x"']),
    ),
    expected: [
      'idp.yaml:6:29: clients[0].backchannel_logout_uri: must not contain a fragment (#…) (OpenID Back-Channel Logout 1.0 §2.2)',
    ],
  },
  {
    rule: 'loopback redirect URIs of native apps need no port (RFC 8252 §7.3)',
    good: yaml(
      secretLine,
      'clients:',
      ...client([
        'client_id: cli',
        'token_endpoint_auth_method: none',
        'redirect_uris: ["http://127.0.0.1/callback", "http://[::1]/callback"]',
      ]),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: cli', 'token_endpoint_auth_method: none', 'redirect_uris: ["http://127.0.0.1/cb#x"]']),
    ),
    expected: ['idp.yaml:5:21: clients[0].redirect_uris[0]: must not contain a fragment (#…) (RFC 6749 §3.1.2)'],
  },
  {
    rule: 'client_credentials needs a confidential client',
    good: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: job', 'client_secret: s', 'grant_types: [client_credentials]']),
    ),
    bad: yaml(
      secretLine,
      'clients:',
      ...client(['client_id: job', 'token_endpoint_auth_method: none', 'grant_types: [client_credentials]']),
    ),
    expected: [
      'idp.yaml:5:18: clients[0].grant_types: client_credentials needs a client that authenticates; a public client (token_endpoint_auth_method none) cannot use it',
    ],
  },
  {
    rule: 'unique term id and content type link | text',
    good: yaml(
      secretLine,
      'terms:',
      '  - id: tos',
      '    version: "1"',
      '    content:',
      '      en: { title: Terms, type: link, content: "https://example.com/tos" }',
    ),
    bad: yaml(
      secretLine,
      'terms:',
      '  - id: tos',
      '    version: "1"',
      '    content:',
      '      en: { title: Terms, type: html, content: "<b>x</b>" }',
      '  - id: tos',
      '    version: "2"',
      '    content: { en: { title: T, type: text, content: x } }',
    ),
    expected: [
      'idp.yaml:6:33: terms[0].content.en.type: must be one of link, text',
      'idp.yaml:7:9: terms[1].id: duplicate id: terms[0] already uses it',
    ],
  },
  {
    rule: 'unique identity provider id',
    good: yaml(secretLine, 'identity_providers:', '  - { id: github, type: github, client_id: a, client_secret: b }'),
    bad: yaml(
      secretLine,
      'identity_providers:',
      '  - { id: github, type: github, client_id: a, client_secret: b }',
      '  - { id: github, type: google, client_id: a, client_secret: b }',
    ),
    expected: ['idp.yaml:4:11: identity_providers[1].id: duplicate id: identity_providers[0] already uses it'],
  },
  {
    rule: 'generic_oauth needs display_name, authorization_url and token_url',
    good: yaml(
      secretLine,
      'identity_providers:',
      '  - id: corp',
      '    type: generic_oauth',
      '    display_name: Corp',
      '    authorization_url: https://sso.example.com/authorize',
      '    token_url: https://sso.example.com/token',
      '    client_id: a',
      '    client_secret: b',
    ),
    bad: yaml(
      secretLine,
      'identity_providers:',
      '  - id: corp',
      '    type: generic_oauth',
      '    authorization_url: https://sso.example.com/authorize',
      '    client_id: a',
      '    client_secret: b',
    ),
    expected: [
      'idp.yaml:3:5: identity_providers[0]: missing required key "display_name" (required for type generic_oauth)',
      'idp.yaml:3:5: identity_providers[0]: missing required key "token_url" (required for type generic_oauth)',
    ],
  },
  {
    rule: 'scheduler.cleanup_cron is a cron expression',
    good: yaml(secretLine, 'scheduler:', '  cleanup_cron: "*/15 1-5 * * MON-FRI"'),
    bad: yaml(secretLine, 'scheduler:', '  cleanup_cron: every night'),
    expected: [
      'idp.yaml:3:17: scheduler.cleanup_cron: is not a valid cron expression: write 5 fields (minute hour day month weekday, such as "0 2 * * *"), 6 with seconds first, or a nickname such as @daily',
    ],
  },
  {
    rule: 'scheduler.cleanup_cron fires at some point',
    good: yaml(secretLine, 'scheduler:', '  cleanup_cron: "0 0 29 2 *"'),
    bad: yaml(secretLine, 'scheduler:', '  cleanup_cron: "0 0 31 2 *"'),
    expected: [
      'idp.yaml:3:17: scheduler.cleanup_cron: is a cron expression that never fires (a date that does not exist, such as 31 February?)',
    ],
  },
  {
    rule: 'metrics.port is not server.port while metrics are on',
    good: yaml(secretLine, 'metrics:', '  enabled: false', '  port: 8080'),
    bad: yaml(secretLine, 'metrics:', '  enabled: true', '  port: 8080'),
    expected: [
      'idp.yaml:4:9: metrics.port: is server.port (8080): the metrics listener needs a port of its own, such as 9464',
    ],
  },
  {
    rule: 'metrics bounds',
    good: yaml(secretLine, 'metrics:', '  enabled: true', '  host: 0.0.0.0', '  port: 0'),
    bad: yaml(secretLine, 'metrics:', '  port: 65536'),
    expected: ['idp.yaml:3:9: metrics.port: must be at most 65535'],
  },
  {
    rule: 'scheduler bounds',
    good: yaml(secretLine, 'scheduler:', '  background_max_attempts: 1', '  lock_ttl_ms: 0.5'),
    bad: yaml(secretLine, 'scheduler:', '  background_max_attempts: 1.5', '  lock_ttl_ms: 0'),
    expected: [
      'idp.yaml:3:28: scheduler.background_max_attempts: must be a whole number, not the number 1.5',
      'idp.yaml:4:16: scheduler.lock_ttl_ms: must be greater than 0',
    ],
  },
  {
    rule: 'database.url required for postgres',
    good: yaml(secretLine, 'database:', '  client: postgres', '  url: postgres://idp@127.0.0.1/idp'),
    bad: yaml(secretLine, 'database:', '  client: postgres'),
    expected: ['idp.yaml:3:3: database: missing required key "url" (required when client is postgres)'],
  },
  {
    rule: 'default locale is offered',
    good: yaml(secretLine, 'i18n: { default_locale: de, locales: [en, de] }'),
    bad: yaml(secretLine, 'i18n: { default_locale: fr, locales: [en, de] }'),
    expected: ['idp.yaml:2:25: i18n.default_locale: is not one of i18n.locales'],
  },
  {
    rule: 'branding: a colour and a logo the pages can use',
    good: yaml(secretLine, 'branding: { primary_color: "rgb(31, 111, 235)", logo_url: /brand/logo.svg }'),
    bad: yaml(secretLine, 'branding: { primary_color: blue, logo_url: "javascript:alert(1)" }'),
    expected: [
      'idp.yaml:2:28: branding.primary_color: must be a colour written #rgb, #rrggbb or rgb(r, g, b), such as #1f6feb',
      'idp.yaml:2:44: branding.logo_url: must be an http(s) URL, a path on this server (/logo.svg) or a data:image/ URI',
    ],
  },
  {
    rule: 'a user locale is one of i18n.locales, spelled as there',
    good: yaml(secretLine, 'i18n: { locales: [en, de] }', 'users:', ...user('a', 'a@example.com', ['locale: de'])),
    bad: yaml(
      secretLine,
      'i18n: { locales: [en, de] }',
      'users:',
      ...user('a', 'a@example.com', ['locale: DE']),
      ...user('b', 'b@example.com', ['locale: fr']),
    ),
    expected: [
      'idp.yaml:6:13: users[0].locale: is not one of i18n.locales (en, de) (did you mean "de"?)',
      'idp.yaml:9:13: users[1].locale: is not one of i18n.locales (en, de)',
    ],
  },
  {
    rule: 'user names are one line of text, not blank',
    good: yaml(
      secretLine,
      'users:',
      ...user('a', 'a@example.com', ['name: "Ada Lovelace"', 'given_name: Ada', 'family_name: "Lovelace 😀"']),
    ),
    bad: yaml(
      secretLine,
      'users:',
      ...user('a', 'a@example.com', ['name: "Ada\\nLovelace"', 'given_name: "  "', 'family_name: "Love\\tlace"']),
      ...user('b', 'b@example.com', ['name: "broken \\ud800 text"', 'given_name: "ok\\u0085"']),
    ),
    expected: [
      'idp.yaml:5:11: users[0].name: must not contain control characters (line breaks, tabs…)',
      'idp.yaml:6:17: users[0].given_name: must not be blank',
      'idp.yaml:7:18: users[0].family_name: must not contain control characters (line breaks, tabs…)',
      'idp.yaml:10:11: users[1].name: must not contain control characters (line breaks, tabs…)',
      'idp.yaml:11:17: users[1].given_name: must not contain control characters (line breaks, tabs…)',
    ],
  },
  {
    rule: 'user profile fields: 1..255 characters (locale 1..64)',
    good: yaml(secretLine, 'users:', ...user('a', 'a@example.com', [`name: ${'n'.repeat(255)}`])),
    bad: yaml(
      secretLine,
      'users:',
      ...user('a', 'a@example.com', [`name: ${'n'.repeat(256)}`, 'given_name: ""', `locale: ${'l'.repeat(65)}`]),
    ),
    expected: [
      'idp.yaml:5:11: users[0].name: must be at most 255 characters long',
      'idp.yaml:6:17: users[0].given_name: must not be empty',
      'idp.yaml:7:13: users[0].locale: must be at most 64 characters long',
    ],
  },
  {
    rule: 'proxy upstream is an http URL',
    good: yaml(secretLine, 'frontend: { mode: proxy, path: "http://127.0.0.1:3000" }'),
    bad: yaml(secretLine, 'frontend: { mode: proxy, path: ./web }'),
    expected: [
      'idp.yaml:2:32: frontend.path: must be an http(s) URL of the upstream front end in proxy mode (such as http://127.0.0.1:5173)',
    ],
  },
  {
    rule: 'users.sub length 1..255',
    good: yaml(secretLine, 'users:', ...user('x'.repeat(255), 'a@example.com')),
    bad: yaml(secretLine, 'users:', ...user('x'.repeat(256), 'a@example.com'), ...user('""', 'b@example.com')),
    expected: [
      'idp.yaml:3:10: users[0].sub: must be at most 255 characters long',
      'idp.yaml:5:10: users[1].sub: must not be empty',
    ],
  },
  {
    rule: 'a link term is an absolute http(s) URL',
    good: yaml(
      secretLine,
      'terms:',
      '  - id: tos',
      '    version: "1"',
      '    content:',
      '      en: { title: Terms, type: link, content: "https://example.com/terms" }',
      '      de: { title: AGB, type: text, content: "Es gilt, was hier steht." }',
    ),
    bad: yaml(
      secretLine,
      'terms:',
      '  - id: tos',
      '    version: "1"',
      '    content:',
      '      en: { title: Terms, type: link, content: "javascript:alert(1)" }',
      '      de: { title: AGB, type: link, content: "/agb" }',
    ),
    expected: [
      'idp.yaml:6:48: terms[0].content.en.content: a link term must be an absolute http(s) URL (such as https://example.com/terms)',
      'idp.yaml:7:46: terms[0].content.de.content: a link term must be an absolute http(s) URL (such as https://example.com/terms)',
    ],
  },
  {
    rule: 'server.base_url is an absolute http(s) URL',
    good: yaml(secretLine, 'server:', '  base_url: https://id.example.com/'),
    bad: yaml(secretLine, 'server:', '  base_url: localhost:8080'),
    expected: [
      'idp.yaml:3:13: server.base_url: "localhost:8080" is not an absolute http(s) URL: write the scheme too, such as http://localhost:8080',
    ],
  },
  {
    rule: 'server.base_url names a host, with http or https',
    good: yaml(secretLine, 'server:', '  base_url: http://localhost:8080'),
    bad: yaml(secretLine, 'server:', '  base_url: "ftp://id.example.com"'),
    expected: [
      'idp.yaml:3:13: server.base_url: "ftp://id.example.com" is not an absolute http(s) URL: write the scheme too, such as http://localhost:8080',
    ],
  },
  {
    rule: 'server.trust_proxy lists IPv4 and IPv6 addresses and CIDR ranges',
    good: yaml(secretLine, 'server:', '  trust_proxy: [10.0.0.0/8, 192.0.2.1, "2001:db8::/32", "::1", 0.0.0.0/0]'),
    bad: yaml(
      secretLine,
      'server:',
      '  trust_proxy:',
      '    - 10.0.0.0/33',
      '    - proxy.internal',
      '    - "2001:db8::/129"',
      '    - 10.0.0.1/',
      '    - 192.0.2.1',
    ),
    expected: [
      'idp.yaml:4:7: server.trust_proxy[0]: "10.0.0.0/33": the prefix length after "/" must be a whole number from 0 to 32',
      'idp.yaml:5:7: server.trust_proxy[1]: "proxy.internal" is not an IPv4 or IPv6 address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32)',
      'idp.yaml:6:7: server.trust_proxy[2]: "2001:db8::/129": the prefix length after "/" must be a whole number from 0 to 128',
      'idp.yaml:7:7: server.trust_proxy[3]: "10.0.0.1/": the prefix length after "/" must be a whole number from 0 to 32',
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

describe('warnings do not make a file invalid', () => {
  it.each([
    [
      'no security.secret',
      yaml('server: { port: 8080 }'),
      'idp.yaml: warning: security: no security.secret: a random one will be generated and stored in the database (set security.secret: ${IDP_SECRET} to keep sessions valid if the database is replaced)',
    ],
    [
      'e-mail patterns while registration is off',
      yaml(secretLine, 'registration:', '  allowed_email_patterns: ["*@example.com"]'),
      'idp.yaml:3:27: warning: registration.allowed_email_patterns: has no effect while registration.enabled is false',
    ],
    [
      'verification without e-mail',
      yaml(secretLine, 'registration: { enabled: true }'),
      'idp.yaml:2:15: warning: registration.email_verification_required: verification e-mails cannot be sent while email.enabled is false: registration answers 503 EMAIL_DISABLED',
    ],
    [
      'registration without verification and without e-mail',
      yaml(secretLine, 'registration: { enabled: true, email_verification_required: false }'),
      'idp.yaml:2:26: warning: registration.enabled: self-registered users cannot reset a forgotten password while email.enabled is false (password reset needs e-mail)',
    ],
    [
      'an SMTP user without a password',
      yaml(secretLine, 'email:', '  enabled: true', '  smtp: { user: mailer }'),
      'idp.yaml:4:17: warning: email.smtp.user: is set without email.smtp.password: every mail fails (an SMTP login needs both)',
    ],
    [
      'url with sqlite',
      yaml(secretLine, 'database: { url: "postgres://x@y/z" }'),
      'idp.yaml:2:18: warning: database.url: is ignored when client is sqlite (set client: postgres to use it)',
    ],
    [
      'trust_proxy: true (one hop)',
      yaml(secretLine, 'server: { trust_proxy: true }'),
      "idp.yaml:2:24: warning: server.trust_proxy: true trusts one proxy hop: the client address is the last X-Forwarded-For entry, written by the proxy idp sees; write 1, or the proxies' addresses, to say so",
    ],
  ])('%s', (_name, text, expected) => {
    expect(problemLines(text)).toEqual([expected]);
  });
});
