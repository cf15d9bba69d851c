import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupRecord } from '../../src/model/index.js';
import { fetchGithubTeams, hasNextPage, maxTeamPages, readTeams } from '../../src/federation/github-teams.js';
import { groupRulesOf, matchUpstreamGroups, wantsOf, type GroupRule } from '../../src/federation/upstream-groups.js';
import { UpstreamError } from '../../src/federation/federation-error.js';
import { json, listen } from './support/upstream-http.js';

/** The upstream rules of groups against what an upstream asserts, and GitHub's teams read page by page from a real server. */
const group = (id: string, upstream: GroupRecord['upstream']): GroupRecord => ({
  id,
  name: id,
  description: null,
  upstream,
  createdAt: 0,
  updatedAt: 0,
});

const claimRule = (groupId: string, value: string, claim = 'groups'): GroupRule => ({
  groupId,
  rule: { provider: 'corp', claim, value },
});
const teamRule = (groupId: string, team: string): GroupRule => ({ groupId, rule: { provider: 'github', team } });
const match = (rules: GroupRule[], claims: Record<string, unknown>, teams: string[] = []) =>
  matchUpstreamGroups(rules, { claims, teams });

describe('the rules of a provider', () => {
  const groups = [
    group('dev', [{ provider: 'corp', claim: 'groups', value: 'dev' }]),
    group('ops', []),
    group('sre', [
      { provider: 'corp', claim: 'groups', value: 'sre' },
      { provider: 'corp', claim: 'roles', value: 'oncall' },
      { provider: 'github', team: 'acme/sre' },
    ]),
  ];

  it('are the entries naming it, with their group, and say which claims to read and whether teams are needed', () => {
    const corp = groupRulesOf(groups, 'corp');
    expect(corp).toEqual([claimRule('dev', 'dev'), claimRule('sre', 'sre'), claimRule('sre', 'oncall', 'roles')]);
    expect(wantsOf(corp)).toEqual({ claims: ['groups', 'roles'], teams: false });
    const github = groupRulesOf(groups, 'github');
    expect(github).toEqual([teamRule('sre', 'acme/sre')]);
    expect(wantsOf(github)).toEqual({ claims: [], teams: true });
    expect(wantsOf(groupRulesOf(groups, 'google'))).toEqual({ claims: [], teams: false });
  });
});

describe('matching what an upstream asserts', () => {
  const rules = [claimRule('sre', 'sre'), claimRule('dev', 'dev'), claimRule('admins', 'admin', 'role')];

  it.each([
    ['a string claim', { groups: 'sre' }, ['sre']],
    ['an array of strings', { groups: ['x', 'sre', 'dev'] }, ['dev', 'sre']],
    ['values compared exactly', { groups: ['SRE', ' dev'] }, []],
    ['another claim', { role: ['admin'], groups: [] }, ['admins']],
    ['a number', { groups: 7 }, []],
    ['an object', { groups: { sre: true } }, []],
    ['null', { groups: null }, []],
    [
      'an array with non-strings (their strings still count)',
      { groups: [1, null, { v: 'dev' }, ['sre'], 'dev'] },
      ['dev'],
    ],
    ['no such claim', {}, []],
  ])('%s', (_name, claims, expected) => {
    expect(match(rules, claims)).toEqual(expected);
  });

  it('reads only own claims: a name of a property of every object asserts nothing unless the upstream sent it', () => {
    expect(match([claimRule('g', 'function Object() { [native code] }', 'constructor')], {})).toEqual([]);
    const parsed = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
    expect([match([claimRule('g', 'x', '__proto__')], parsed), match([claimRule('g', 'x', '__proto__')], {})]).toEqual([
      ['g'],
      [],
    ]);
  });

  it('maps what matches among 10,000 asserted values and ignores the rest', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => (i % 3 === 0 ? i : `group-${i}`));
    many[9_999] = 'sre';
    const started = performance.now();
    expect(match([...rules, claimRule('g-4', 'group-4')], { groups: many })).toEqual(['g-4', 'sre']);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('matches a team rule against org/slug case-insensitively, a group once however many rules hold', () => {
    const teams = ['acme/sre', 'acme/platform'];
    expect(
      match([teamRule('sre', 'Acme/SRE'), teamRule('sre', 'acme/platform'), teamRule('dev', 'acme/dev')], {}, teams),
    ).toEqual(['sre']);
    expect(match([teamRule('sre', 'other/sre')], {}, teams)).toEqual([]);
  });
});

describe('reading GitHub teams', () => {
  it('takes org/slug in lower case from each entry that has both', () => {
    expect(
      readTeams('t', [
        { slug: 'sre', organization: { login: 'Acme' } },
        { slug: 'no-org' },
        { slug: 3, organization: { login: 'acme' } },
        { slug: 'x', organization: null },
        { slug: 'y', organization: { login: 5 } },
        null,
        'acme/str',
      ]),
    ).toEqual(['acme/sre']);
    expect(() => readTeams('teams endpoint', { teams: [] })).toThrow(
      'teams endpoint: the answer is not a list of teams',
    );
  });

  it.each([
    [
      '<https://api.github.com/user/teams?page=2>; rel="next", <https://api.github.com/user/teams?page=5>; rel="last"',
      true,
    ],
    ['<https://x/?page=2>; rel=next', true],
    ['<https://x/?page=2>; rel="prev NEXT"', true],
    ['<https://x/?page=1>; rel="prev", <https://x/?page=1>; rel="first"', false],
    ['<https://x/?page=3>; title="next"', false],
    ['garbage', false],
  ])('Link %s: next page %s', (link, next) => {
    expect(hasNextPage(link)).toBe(next);
  });
  it('no Link header: no next page', () => {
    expect(hasNextPage(null)).toBe(false);
  });
});

describe('fetching GitHub teams page by page', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let pages = 0;
  const requests: URL[] = [];
  let behaviour: 'paged' | 'endless' | 'refuse' = 'paged';
  beforeAll(async () => {
    server = await listen((req, res, url) => {
      requests.push(url);
      if (behaviour === 'refuse' || req.headers.authorization !== 'Bearer tok') {
        json(res, 403, { message: 'Resource not accessible' });
        return;
      }
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('per_page'));
      const last = behaviour === 'endless' ? Infinity : pages;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      // The next URL points elsewhere: idp must not follow it, only learn that there is one.
      if (page < last) headers.link = `<http://elsewhere.invalid/user/teams?page=${page + 1}>; rel="next"`;
      const teams = Array.from({ length: perPage }, (_, i) => ({
        slug: `team-${page}-${i}`,
        organization: { login: page === 2 && i === 0 ? 'ACME' : 'acme' },
      }));
      res.writeHead(200, headers).end(JSON.stringify(teams));
    });
  });
  afterAll(() => server.stop());

  it('follows the Link header page by page, 100 a page, at the same API', async () => {
    pages = 3;
    requests.length = 0;
    const teams = await fetchGithubTeams(`${server.url}/api/v3/user/`, 'tok', 1000);
    expect(teams).toHaveLength(300);
    expect(teams).toContain('acme/team-2-0');
    expect(requests.map((u) => u.pathname + u.search)).toEqual([
      '/api/v3/user/teams?per_page=100&page=1',
      '/api/v3/user/teams?per_page=100&page=2',
      '/api/v3/user/teams?per_page=100&page=3',
    ]);
  });

  it(`stops after ${maxTeamPages} pages and keeps what it read`, async () => {
    behaviour = 'endless';
    requests.length = 0;
    expect(await fetchGithubTeams(`${server.url}/user`, 'tok', 1000)).toHaveLength(maxTeamPages * 100);
    expect(requests).toHaveLength(maxTeamPages);
  });

  it('fails with an UpstreamError when a page is refused', async () => {
    behaviour = 'refuse';
    await expect(fetchGithubTeams(`${server.url}/user`, 'tok', 1000)).rejects.toThrow(
      new UpstreamError('teams endpoint: HTTP 403'),
    );
  });
});
