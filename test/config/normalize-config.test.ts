import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, loadConfigText, resolveConfigPath } from '../../src/config/index.js';
import { load, secretLine, yaml } from './load-text.js';

describe('built-in defaults (no config file)', () => {
  it('are the schema defaults (docs/configuration.md)', async () => {
    const result = await loadConfig({ file: null, env: {}, cwd: '/srv/idp' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { config } = result;
    expect(config.file).toBeNull();
    expect(config.server).toEqual({
      baseUrl: 'http://localhost:8080',
      baseUrlDerived: true,
      host: '0.0.0.0',
      port: 8080,
      trustProxy: false,
    });
    // Without a format, the logger picks one from its stream (src/logger.ts).
    expect(config.logging).toEqual({ level: 'info', format: null });
    expect(config.security.loginRateLimit).toEqual({ maxAttempts: 5, addressMaxAttempts: 50, windowSeconds: 900 });
    expect(config.database).toEqual({
      client: 'sqlite',
      filename: '/srv/idp/idp.sqlite',
      url: null,
      pool: { min: 0, max: 10 },
    });
    expect(config.registration).toEqual({
      enabled: false,
      allowedEmailPatterns: [],
      emailVerificationRequired: true,
      signupNotice: {},
    });
    expect(config.openapi).toEqual({
      enabled: true,
      title: 'idp API',
      description: 'OpenID Connect Provider API',
      uiTitle: 'idp API Reference',
    });
    expect(config.frontend).toEqual({ enabled: true, mode: 'static', path: '', htmlVariables: {} });
    expect(config.scheduler).toMatchObject({
      enabled: true,
      mode: 'croner',
      cleanupCron: '0 2 * * *',
      pollIntervalMs: 5000,
      lockTtlMs: 60000,
      backgroundRetryDelayMs: 1000,
      backgroundMaxAttempts: 3,
      backgroundRetentionMs: 604800000,
    });
    expect(config.security.secret).toBeNull();
    expect(config.tokens.signingAlg).toBe('RS256');
    expect(config).toMatchObject({ users: [], clients: [], groups: [], terms: [], identityProviders: [] });
    expect(result.warnings.map((w) => w.path)).toEqual(['security']);
  });
});

describe('normalize', () => {
  it('derives the OpenAPI titles from branding.name unless given', () => {
    const derived = load(yaml(secretLine, 'branding: { name: Acme }'));
    expect(derived.ok && derived.config.openapi).toMatchObject({ title: 'Acme API', uiTitle: 'Acme API Reference' });
    const given = load(yaml(secretLine, 'branding: { name: Acme }', 'openapi: { title: Custom, ui_title: Docs }'));
    expect(given.ok && given.config.openapi).toMatchObject({ title: 'Custom', uiTitle: 'Docs' });
  });

  it('generates one instance id per process when scheduler.instance_id is empty', () => {
    const a = load(yaml(secretLine));
    const b = load(yaml(secretLine, 'scheduler: { instance_id: "" }'));
    const named = load(yaml(secretLine, 'scheduler: { instance_id: node-1 }'));
    expect(a.ok && a.config.scheduler.instanceId).toMatch(/^.+-\d+-[0-9a-f]{8}$/);
    expect(a.ok && b.ok && a.config.scheduler.instanceId === b.config.scheduler.instanceId).toBe(true);
    expect(named.ok && named.config.scheduler.instanceId).toBe('node-1');
  });

  it('resolves relative paths against the config file directory', () => {
    const result = loadConfigText(
      yaml(secretLine, 'database: { filename: data/idp.sqlite }', 'frontend: { path: ./public }'),
      { file: 'deploy/idp.yaml', env: {}, cwd: '/srv' },
    );
    expect(result.ok && result.config.database.filename).toBe('/srv/deploy/data/idp.sqlite');
    expect(result.ok && result.config.frontend.path).toBe('/srv/deploy/public');
    expect(result.ok && result.config.file).toBe('/srv/deploy/idp.yaml');
    const memory = load(yaml(secretLine, 'database: { filename: ":memory:" }'));
    expect(memory.ok && memory.config.database.filename).toBe(':memory:');
  });

  it('chooses frontend.path from the mode', () => {
    const proxy = load(yaml(secretLine, 'frontend: { mode: proxy }'));
    expect(proxy.ok && proxy.config.frontend.path).toBe('http://127.0.0.1:5173');
    const staticMode = load(yaml(secretLine, 'frontend: { mode: static }'));
    expect(staticMode.ok && staticMode.config.frontend.path).toBe('');
  });

  it('maps clients, users, providers and terms to camelCase with their defaults', () => {
    const result = load(
      yaml(
        secretLine,
        'clients: [{ client_id: spa, token_endpoint_auth_method: none, redirect_uris: ["http://localhost/cb"] }]',
        'users: [{ sub: a, email: a@example.com }, { sub: b, email: b@example.com, name: Ada Lovelace, given_name: Ada, family_name: Lovelace, locale: en }]',
        'identity_providers: [{ id: gh, type: github, client_id: x, client_secret: y }]',
        'terms: [{ id: tos, version: "1", content: { en: { title: T, type: text, content: c } } }]',
        'server: { base_url: "https://id.example.com/" }',
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.server.baseUrl).toBe('https://id.example.com');
    expect(result.config.server.baseUrlDerived).toBe(false);
    expect(result.config.clients[0]).toEqual({
      clientId: 'spa',
      name: 'spa',
      clientSecret: null,
      clientSecretHash: null,
      redirectUris: ['http://localhost/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'none',
      tokenEndpointAuthMethodPinned: true,
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      requirePkce: true,
      skipConsent: false,
      idTokenSignedResponseAlg: 'RS256',
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
      requirePushedAuthorizationRequests: false,
      access: null,
    });
    expect(result.config.users[0]).toEqual({
      sub: 'a',
      email: 'a@example.com',
      role: 'user',
      emailVerified: true,
      passwordHash: null,
      name: null,
      givenName: null,
      familyName: null,
      locale: null,
    });
    expect(result.config.users[1]).toMatchObject({
      name: 'Ada Lovelace',
      givenName: 'Ada',
      familyName: 'Lovelace',
      locale: 'en',
    });
    expect(result.config.identityProviders[0]).toMatchObject({
      id: 'gh',
      enabled: true,
      displayName: null,
      scopes: ['read:user', 'user:email'],
      emailConflictStrategy: 'require_link',
      userinfoUrl: null,
    });
    expect(result.config.terms[0]).toEqual({
      id: 'tos',
      required: false,
      consentMode: 'explicit',
      version: '1',
      content: { en: { title: 'T', type: 'text', content: 'c' } },
    });
  });

  it('resolves group members by sub and by e-mail (any case), with users[].groups, unique and sorted', () => {
    const result = load(
      yaml(
        secretLine,
        'users:',
        '  - { sub: zoe, email: zoe@example.com, groups: [sre] }',
        '  - { sub: alice, email: Alice@Example.com }',
        '  - { sub: bob, email: bob@example.com, groups: [sre, dev] }',
        '  - { sub: carol, email: carol@example.com }',
        'groups:',
        '  - id: sre',
        '    members: [alice@example.COM, bob, alice]',
        '  - { id: dev, name: Developers, description: Writes the code }',
        '  - { id: empty }',
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.groups).toEqual([
      { id: 'sre', name: 'sre', description: null, upstream: [], members: ['alice', 'bob', 'zoe'] },
      { id: 'dev', name: 'Developers', description: 'Writes the code', upstream: [], members: ['bob'] },
      { id: 'empty', name: 'empty', description: null, upstream: [], members: [] },
    ]);
    // Named twice (by e-mail and by sub; in members and in users[].groups): counted once, and warned.
    expect(result.warnings.map((w) => w.path)).toEqual(['groups[0].members[1]', 'groups[0].members[2]']);
  });

  it('keeps upstream rules as written', () => {
    const result = load(
      yaml(
        secretLine,
        'identity_providers:',
        '  - { id: gh, type: github, client_id: a, client_secret: b, scopes: [read:org] }',
        '  - { id: corp, type: google, client_id: a, client_secret: b }',
        'groups:',
        '  - id: sre',
        '    upstream: [{ provider: corp, claim: groups, value: sre }, { provider: gh, team: acme/sre }]',
      ),
    );
    expect(result.ok && result.config.groups[0].upstream).toEqual([
      { provider: 'corp', claim: 'groups', value: 'sre' },
      { provider: 'gh', team: 'acme/sre' },
    ]);
  });

  it.each<[string, unknown]>([
    ['absent', null],
    ['{}', { groups: null, roles: null, secondFactor: null }],
    ['{ groups: [sre] }', { groups: ['sre'], roles: null, secondFactor: null }],
    ['{ roles: [admin], second_factor: optional }', { groups: null, roles: ['admin'], secondFactor: null }],
    [
      '{ groups: [sre, dev], roles: [user, admin], second_factor: required }',
      { groups: ['sre', 'dev'], roles: ['user', 'admin'], secondFactor: 'required' },
    ],
  ])('reads clients[].access %s as %j', (access, expected) => {
    const result = load(
      yaml(
        secretLine,
        'groups: [{ id: sre }, { id: dev }]',
        'clients:',
        '  - client_id: spa',
        '    token_endpoint_auth_method: none',
        '    redirect_uris: [http://localhost/cb]',
        ...(access === 'absent' ? [] : [`    access: ${access}`]),
      ),
    );
    expect(result.ok && result.config.clients[0].access).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['false', false],
    ['0', false],
    ['[]', false],
    ['true', { hops: 1 }],
    ['1', { hops: 1 }],
    ['3', { hops: 3 }],
  ])('reads server.trust_proxy: %s as %j', (setting, expected) => {
    const result = load(yaml(secretLine, `server: { trust_proxy: ${setting} }`));
    expect(result.ok && result.config.server.trustProxy).toEqual(expected);
  });

  it.each([
    ['{ port: 9000 }', 'http://localhost:9000'],
    ['{ host: 127.0.0.1, port: 9000 }', 'http://localhost:9000'],
    ['{ host: "::", port: 9000 }', 'http://localhost:9000'],
    ['{ host: 192.0.2.10 }', 'http://192.0.2.10:8080'],
    ['{ host: "2001:db8::10", port: 443 }', 'http://[2001:db8::10]:443'],
    ['{ host: id.internal }', 'http://id.internal:8080'],
  ])('derives base_url from server %s when the file has none: %s', (server, expected) => {
    const result = load(yaml(secretLine, `server: ${server}`));
    expect(result.ok && result.config.server).toMatchObject({ baseUrl: expected, baseUrlDerived: true });
  });

  it('reads a server.trust_proxy list as the set of trusted proxy addresses', () => {
    const result = load(
      yaml(secretLine, 'server: { trust_proxy: [10.0.0.0/8, 192.0.2.1, "2001:db8::/32", "10.9.9.9/8"] }'),
    );
    const trust = result.ok ? result.config.server.trustProxy : false;
    if (!trust || !('trusted' in trust)) throw new Error(`expected a list, got ${JSON.stringify(trust)}`);
    const family = (address: string) => (address.includes(':') ? 'ipv6' : 'ipv4');
    const inside = ['10.0.0.1', '10.255.255.255', '192.0.2.1', '2001:db8::1', '2001:db8:ffff::', '::ffff:10.1.2.3'];
    const outside = ['11.0.0.0', '192.0.2.2', '2001:db9::', '::1', '127.0.0.1'];
    expect(inside.filter((a) => !trust.trusted.check(a, family(a)))).toEqual([]);
    expect(outside.filter((a) => trust.trusted.check(a, family(a)))).toEqual([]);
  });

  it('reads an empty file as all defaults', () => {
    expect(load('').ok).toBe(true);
    expect(load('# only a comment\n').ok).toBe(true);
  });
});

describe('resolveConfigPath (docs/cli.md)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-resolve-'));
  const empty = mkdtempSync(path.join(os.tmpdir(), 'idp-resolve-empty-'));
  writeFileSync(path.join(dir, 'idp.yaml'), '');
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it.each([
    ['the flag first', 'a.yaml', { IDP_CONFIG: 'b.yaml' }, dir, 'a.yaml'],
    ['then $IDP_CONFIG', undefined, { IDP_CONFIG: 'b.yaml' }, dir, 'b.yaml'],
    ['then ./idp.yaml when it exists', undefined, {}, dir, 'idp.yaml'],
    ['else null (built-in defaults)', undefined, {}, empty, null],
    ['an empty $IDP_CONFIG counts as unset', undefined, { IDP_CONFIG: '' }, empty, null],
  ])('%s', (_name, flag, env, cwd, expected) => {
    expect(resolveConfigPath(flag, env, cwd)).toBe(expected);
  });
});
