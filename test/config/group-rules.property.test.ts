import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkShape } from '../../src/config/check-shape.js';
import { checkRules } from '../../src/config/rules/index.js';
import { load } from './load-text.js';

const groupId = /^[a-z0-9][a-z0-9._-]{0,63}$/u;
const secret = { secret: '0123456789abcdef0123456789abcdef' };

/** Texts near and far from valid ids: valid ones, near misses, long ones, anything. No `$`: that would be interpolation. */
const idLike = fc
  .oneof(
    fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,63}$/),
    fc.stringMatching(/^[a-zA-Z0-9 ._/@-]{0,80}$/),
    fc.string({ minLength: 60, maxLength: 220, unit: fc.constantFrom('a', 'b', '-', '.', '1') }),
    fc.string({ maxLength: 30 }),
    fc.constantFrom('sre', 'dev', 'SRE', ' sre', 'sre ', '-sre', '_', '.', '0', 'a'.repeat(64), 'a'.repeat(65)),
  )
  .filter((text) => !text.includes('$'));

function errorsOf(config: object) {
  const text = stringify(config);
  const result = load(text);
  return {
    warnings: result.ok ? result.warnings : [],
    errors: result.ok ? [] : result.problems.filter((problem) => problem.severity === 'error'),
    lines: text.split('\n').length,
  };
}

describe('group ids (fast-check)', () => {
  it('a valid id passes; any other is exactly one error, located at groups[0].id', () => {
    fc.assert(
      fc.property(idLike, (id) => {
        const { errors, warnings, lines } = errorsOf({
          security: secret,
          users: [{ sub: 'alice', email: 'alice@example.com' }],
          groups: [{ id, members: ['alice'] }],
        });
        expect(warnings).toEqual([]);
        if (groupId.test(id)) {
          expect(errors).toEqual([]);
          return;
        }
        expect(errors).toHaveLength(1);
        expect(errors[0].path).toBe('groups[0].id');
        expect(errors[0].line).toBeGreaterThanOrEqual(1);
        expect(errors[0].line).toBeLessThanOrEqual(lines);
        expect(errors[0].message).toMatch(/^must be lower-case letters, digits/);
      }),
      { numRuns: 400 },
    );
  });
});

describe('references to groups, users and providers (fast-check)', () => {
  const users = [
    { sub: 'alice', email: 'Alice@Example.com' },
    { sub: 'bob', email: 'bob@example.com' },
  ];
  const places = {
    'users[].groups': {
      at: 'users[0].groups[0]',
      resolves: (ref: string) => ref === 'sre' || ref === 'dev',
      config: (ref: string) => ({ users: [{ ...users[0], groups: [ref] }, users[1]] }),
    },
    'clients[].access.groups': {
      at: 'clients[0].access.groups[0]',
      resolves: (ref: string) => ref === 'sre' || ref === 'dev',
      config: (ref: string) => ({
        users,
        clients: [
          {
            client_id: 'spa',
            token_endpoint_auth_method: 'none',
            redirect_uris: ['http://localhost/cb'],
            access: { groups: [ref] },
          },
        ],
      }),
    },
    'groups[].members': {
      at: 'groups[1].members[0]',
      resolves: (ref: string) =>
        users.some((user) => user.sub === ref || user.email.toLowerCase() === ref.toLowerCase()),
      config: (ref: string) => ({ users, groups: [{ id: 'sre' }, { id: 'dev', members: [ref] }] }),
    },
    'groups[].upstream[].provider': {
      at: 'groups[1].upstream[0].provider',
      resolves: (ref: string) => ref === 'corp',
      config: (ref: string) => ({
        users,
        identity_providers: [{ id: 'corp', type: 'google', client_id: 'a', client_secret: 'b' }],
        groups: [{ id: 'sre' }, { id: 'dev', upstream: [{ provider: ref, claim: 'groups', value: 'dev' }] }],
      }),
    },
  };
  const refLike = fc.oneof(
    idLike,
    fc.constantFrom('alice', 'Alice', 'ALICE@EXAMPLE.COM', 'alice@example.com', 'bob', 'carol', 'corp', 'Corp', ''),
  );

  it.each(Object.entries(places))(
    '%s: a known one passes; any other is exactly one located error there',
    (_name, place) => {
      fc.assert(
        fc.property(refLike, (ref) => {
          const { errors, warnings } = errorsOf({
            security: secret,
            groups: [{ id: 'sre' }, { id: 'dev' }],
            ...place.config(ref),
          });
          expect(warnings).toEqual([]);
          if (place.resolves(ref)) {
            expect(errors).toEqual([]);
            return;
          }
          expect(errors.map((error) => error.path)).toEqual([place.at]);
          expect(errors[0].line).not.toBeNull();
        }),
        { numRuns: 200 },
      );
    },
  );
});

describe('the rules never throw on a file the schema accepts (fast-check)', () => {
  const pick = <T>(...values: T[]) => fc.constantFrom(...values);
  const groupIds = pick('sre', 'dev', 'ops', 'a.b', 'ghost');
  const providerIds = pick('gh', 'corp', 'g', 'missing');
  const subs = pick('alice', 'bob', 'carol');
  const user = fc.record(
    {
      sub: subs,
      email: pick('alice@example.com', 'BOB@example.com', 'bob@example.com', 'carol@example.org'),
      groups: fc.uniqueArray(groupIds, { maxLength: 3 }),
    },
    { requiredKeys: ['sub', 'email'] },
  );
  const upstreamRule = fc.oneof(
    fc.record({ provider: providerIds, claim: pick('groups', 'hd'), value: pick('sre', 'x') }),
    fc.record({ provider: providerIds, team: pick('acme/sre', 'acme/dev') }),
  );
  const group = fc.record(
    {
      id: groupIds,
      name: pick('Site reliability', 'Dev'),
      description: pick('On call'),
      members: fc.array(fc.oneof(subs, pick('ALICE@example.com', 'bob@example.com', 'nobody', 'dave@example.com')), {
        maxLength: 4,
      }),
      upstream: fc.array(upstreamRule, { maxLength: 3 }),
    },
    { requiredKeys: ['id'] },
  );
  const provider = fc.record(
    {
      id: providerIds,
      type: pick('github', 'google', 'apple', 'generic_oauth'),
      display_name: pick('Corp'),
      authorization_url: pick('https://sso.example.com/a'),
      token_url: pick('https://sso.example.com/t'),
      client_id: pick('a'),
      client_secret: pick('b'),
      scopes: fc.uniqueArray(pick('openid', 'read:org', 'user:email', 'read:user'), { maxLength: 4 }),
    },
    { requiredKeys: ['id', 'type', 'display_name', 'authorization_url', 'token_url', 'client_id', 'client_secret'] },
  );
  const access = fc.record(
    {
      groups: fc.uniqueArray(groupIds, { minLength: 1, maxLength: 3 }),
      roles: fc.uniqueArray(pick('user', 'admin'), { minLength: 1 }),
      second_factor: pick('required', 'optional'),
    },
    { requiredKeys: [] },
  );
  const client = fc.record(
    {
      client_id: pick('spa', 'grafana', 'argocd'),
      token_endpoint_auth_method: pick('none'),
      redirect_uris: pick(['http://localhost/cb']),
      access,
    },
    { requiredKeys: ['client_id', 'token_endpoint_auth_method', 'redirect_uris'] },
  );
  const config = fc.record({
    security: pick(secret),
    users: fc.array(user, { maxLength: 4 }),
    groups: fc.array(group, { maxLength: 4 }),
    identity_providers: fc.array(provider, { maxLength: 3 }),
    clients: fc.array(client, { maxLength: 3 }),
  });

  it('on random groups, members, upstream rules, providers and access rules', () => {
    let accepted = 0;
    fc.assert(
      fc.property(config, (generated) => {
        const shaped = checkShape(structuredClone(generated));
        if (shaped.problems.length > 0) return;
        accepted++;
        expect(() => checkRules(shaped.value, true)).not.toThrow();
      }),
      { numRuns: 500 },
    );
    // The generators mostly stay inside the schema, so the property is about the rules, not the shape check.
    expect(accepted).toBeGreaterThan(250);
  });
});
