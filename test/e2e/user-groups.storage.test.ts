import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import type { GroupConfig } from '../../src/config/types.js';
import type { MembershipKey } from '../../src/storage/repositories.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const group = (id: string, name: string, members: string[]): GroupConfig => ({
  id,
  name,
  description: null,
  upstream: [],
  members,
});

/**
 * What people see of their groups (docs/http-api.md, "Your groups"): GET
 * /api/user/groups for /account, and the groups the consent page names
 * when an application asks for the groups scope (GET /api/consent and the
 * page itself), over HTTP on both engines.
 */
describe.each(databaseKinds)('the groups a user sees on %s', (kind) => {
  let idp: RunningIdp;
  const json = { 'content-type': 'application/json' };
  const groups = [
    group('sre', 'Site reliability', ['alice']),
    group('dev', 'Developers', ['alice']),
    group('ops', 'Operations', []),
    group('ops-eu', 'Operations', []),
    group('qa', 'Quality', []),
  ];

  beforeAll(async () => {
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'carol' })],
      groups,
      clients: [
        testClient({
          clientId: 'grafana',
          name: 'Grafana',
          redirectUris: ['https://grafana.example.com/callback'],
          scopes: ['openid', 'email', 'groups'],
        }),
      ],
    });
    // The groups and memberships as apply and the admin API and an upstream sign-in store them.
    const repository = idp.app.storage.repositories.groups;
    const now = Date.now();
    for (const { members: _members, ...record } of groups)
      await repository.save(idp.database.tx, { ...record, createdAt: now, updatedAt: now });
    const key = (groupId: string, source: MembershipKey['source'], provider: string | null = null) => ({
      groupId,
      sub: 'alice',
      source,
      provider,
    });
    await repository.addMemberships(
      idp.database.tx,
      [
        key('sre', 'config'),
        key('dev', 'config'),
        key('dev', 'upstream', 'corp'),
        key('dev', 'upstream', 'github'),
        key('ops-eu', 'database'),
        key('ops', 'upstream', 'corp'),
      ],
      now,
    );
  });
  afterAll(() => idp.stop());

  async function signedIn(email: string): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  /** The consent page's return_to for an authorization request of grafana with this scope. */
  async function consentReturnTo(jar: CookieJar, scope: string): Promise<string> {
    const authorize = `${idp.url}/oauth2/authorize?${new URLSearchParams({
      client_id: 'grafana',
      redirect_uri: 'https://grafana.example.com/callback',
      response_type: 'code',
      scope,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
    })}`;
    const consent = locationOf(await jar.fetch(authorize), idp.url);
    expect(consent.pathname).toBe('/consent');
    return consent.searchParams.get('return_to')!;
  }

  const consentPrompt = async (jar: CookieJar, returnTo: string) =>
    (await (
      await jar.fetch(`${idp.url}/api/consent?${new URLSearchParams({ return_to: returnTo })}`)
    ).json()) as Record<string, unknown>;

  it('lists your groups with one entry per group and source, ordered by id then source', async () => {
    const response = await (await signedIn('alice@example.com')).fetch(`${idp.url}/api/user/groups`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      groups: [
        { id: 'dev', name: 'Developers', source: 'config' },
        // Two upstream providers assert dev: one upstream entry.
        { id: 'dev', name: 'Developers', source: 'upstream' },
        { id: 'ops', name: 'Operations', source: 'upstream' },
        { id: 'ops-eu', name: 'Operations', source: 'database' },
        { id: 'sre', name: 'Site reliability', source: 'config' },
      ],
    });
    const none = await (await signedIn('carol@example.com')).fetch(`${idp.url}/api/user/groups`);
    expect(await none.json()).toEqual({ groups: [] });
  });

  it('refuses GET /api/user/groups without a session', async () => {
    const response = await fetch(`${idp.url}/api/user/groups`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('names the groups the application will see, each once by name, when it asks for the groups scope', async () => {
    const alice = await signedIn('alice@example.com');
    const withGroups = await consentPrompt(alice, await consentReturnTo(alice, 'openid groups'));
    expect(withGroups).toMatchObject({
      scopes: [
        { scope: 'openid', description: 'Sign you in with your account' },
        { scope: 'groups', description: 'See which groups you are in' },
      ],
      groups: [
        { id: 'dev', name: 'Developers' },
        { id: 'ops', name: 'Operations' },
        { id: 'ops-eu', name: 'Operations' },
        { id: 'sre', name: 'Site reliability' },
      ],
    });
    const without = await consentPrompt(alice, await consentReturnTo(alice, 'openid email'));
    expect(without.groups).toBeNull();
    const carol = await signedIn('carol@example.com');
    expect((await consentPrompt(carol, await consentReturnTo(carol, 'openid groups'))).groups).toEqual([]);
  });

  it('shows them on the consent page, in the language of the page', async () => {
    const alice = await signedIn('alice@example.com');
    const returnTo = await consentReturnTo(alice, 'openid groups');
    const page = async (language: string) =>
      (
        await alice.fetch(`${idp.url}/consent?${new URLSearchParams({ return_to: returnTo })}`, {
          headers: { 'accept-language': language },
        })
      ).text();
    expect(await page('en')).toContain(
      '<span class="scope-detail" id="consent-groups">Your groups: Developers, Operations, Operations, Site reliability</span>',
    );
    expect(await page('de')).toContain(
      '<span class="scope-detail" id="consent-groups">Ihre Gruppen: Developers, Operations, Operations, Site reliability</span>',
    );
    const carol = await signedIn('carol@example.com');
    const carolPage = await (
      await carol.fetch(
        `${idp.url}/consent?${new URLSearchParams({ return_to: await consentReturnTo(carol, 'openid groups') })}`,
      )
    ).text();
    expect(carolPage).toContain('You are not in any group.');
  });
});
