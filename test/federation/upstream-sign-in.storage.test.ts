import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { CookieJar, locationOf } from '../e2e/support/cookie-jar.js';
import { startFederationFixture, type FederationFixture } from './support/federation-fixture.js';
import { authorizePath, walkUpstream } from './support/walk-upstream.js';
import { seedUser } from '../support/test-app.js';

/**
 * Issue 13: signing in through upstream identity providers, each played by
 * a real HTTP server on 127.0.0.1 (./support/federation-fixture.ts),
 * against the real idp on each database: every type, the account rules
 * (new account, returning, require_link, auto_link and whom it never reaches), linking from a signed-in
 * account, and the OAuth Connect API.
 */
describe.each(databaseKinds)('upstream sign-in on %s', (kind) => {
  let f: FederationFixture;
  const url = () => f.idp.url;
  beforeAll(async () => {
    f = await startFederationFixture(kind);
  });
  afterAll(() => f?.stop());

  it('lists the enabled providers for the login buttons', async () => {
    const response = await fetch(`${url()}/api/auth/providers`);
    expect(await response.json()).toEqual({
      providers: [
        { id: 'apple', type: 'apple', display_name: 'Apple', icon_url: null },
        { id: 'corp', type: 'generic_oauth', display_name: 'Corp SSO', icon_url: null },
        { id: 'corp-auto', type: 'generic_oauth', display_name: 'Corp Partners', icon_url: null },
        { id: 'github', type: 'github', display_name: 'GitHub', icon_url: null },
        { id: 'github-auto', type: 'github', display_name: 'GitHub', icon_url: null },
        { id: 'google', type: 'google', display_name: 'Google', icon_url: null },
      ],
    });
  });

  it('github: a first sign-in creates the account from the verified primary address, a second finds it', async () => {
    const jar = new CookieJar();
    f.github.signInAs('grace');
    const landed = await walkUpstream(jar, url(), authorizePath('github', { return_to: '/account' }));
    expect(landed.pathname + landed.search).toBe('/account');
    const request = f.github.authorizationRequests.at(-1)!;
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('scope')).toBe('read:user user:email');
    expect(request.get('redirect_uri')).toBe(`${url()}/api/auth/providers/github/callback`);
    expect(request.get('nonce')).toBeNull();
    const { user, session } = await f.session(jar);
    expect(user).toMatchObject({
      email: 'grace@users.example',
      email_verified: true,
      managed_by: 'database',
      has_password: false,
    });
    expect(session.amr).toEqual(['fed']);
    expect(await f.connections()).toContainEqual({ provider_id: 'github', subject: '101', sub: user.sub });

    const again = new CookieJar();
    await walkUpstream(again, url(), authorizePath('github'));
    expect((await f.session(again)).user.sub).toBe(user.sub);
    expect((await f.users()).filter((u) => u.email === 'grace@users.example')).toHaveLength(1);
  });

  it('apple: the form_post answer is handed to the GET callback, the client secret JWT is accepted, email_verified "true" counts', async () => {
    const jar = new CookieJar();
    f.apple.signInAs('000123.apple-ada');
    const landed = await walkUpstream(jar, url(), authorizePath('apple', { return_to: '/account' }));
    expect(landed.pathname).toBe('/account');
    const request = f.apple.authorizationRequests.at(-1)!;
    expect([request.get('response_mode'), request.get('scope')]).toEqual(['form_post', 'name email']);
    expect(request.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect((await f.session(jar)).user).toMatchObject({ email: 'ada@privaterelay.appleid.com', email_verified: true });
  });

  it('generic_oauth with openid: the ID token (discovered issuer, nonce) names the account, userinfo gives the address', async () => {
    const jar = new CookieJar();
    f.oidc.signInAs('ada');
    const landed = await walkUpstream(
      jar,
      url(),
      authorizePath('corp', { return_to: '/oauth2/authorize?client_id=web' }),
    );
    expect(landed.pathname + landed.search).toBe('/oauth2/authorize?client_id=web');
    const request = f.oidc.authorizationRequests.at(-1)!;
    expect([request.get('nonce')?.length, request.get('code_challenge_method'), request.get('scope')]).toEqual([
      43,
      'S256',
      'openid email',
    ]);
    const { user, session } = await f.session(jar);
    expect(user).toMatchObject({ email: 'ada@example.com', email_verified: true, has_password: false });
    expect(session.amr).toEqual(['fed']);
    expect(await f.connections()).toContainEqual({ provider_id: 'corp', subject: 'ada', sub: user.sub });
  });

  it('google with overridden endpoints: client_secret_post; the same account signs in again as the same user', async () => {
    f.oidc.signInAs('gia');
    const first = new CookieJar();
    await walkUpstream(first, url(), authorizePath('google'));
    const second = new CookieJar();
    await walkUpstream(second, url(), authorizePath('google'));
    const [a, b] = [(await f.session(first)).user, (await f.session(second)).user];
    expect(a).toMatchObject({ email: 'gia@example.com', sub: b.sub });
  });

  it('require_link: the address of an existing account asks for its sign-in, then the pending link completes', async () => {
    const jar = new CookieJar();
    f.github.signInAs('alice-gh');
    const before = await f.users();
    const landed = await walkUpstream(jar, url(), authorizePath('github', { return_to: '/account' }));
    expect(landed.pathname).toBe('/login');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      error: 'LINK_REQUIRED',
      provider: 'github',
      login_hint: 'alice@example.com',
      return_to: '/api/auth/providers/github/link?return_to=%2Faccount',
    });
    expect(await f.users()).toEqual(before);
    expect((await f.connections()).filter((c) => c.subject === '102')).toEqual([]);

    // Signed in as someone else, the link is asked for again and not made.
    const elsewhere = new CookieJar();
    for (const [name, value] of jar
      .header()
      .split('; ')
      .map((c) => c.split('=')))
      if (name === 'upstream_link')
        elsewhere.store(new Response(null, { headers: { 'set-cookie': `${name}=${value}` } }));
    await f.signInWithPassword(elsewhere, 'bob@example.com');
    const refused = locationOf(await elsewhere.fetch(new URL(landed.searchParams.get('return_to')!, url())), url());
    expect(refused.searchParams.get('error')).toBe('LINK_REQUIRED');

    await f.signInWithPassword(jar, 'alice@example.com');
    const done = locationOf(await jar.fetch(new URL(landed.searchParams.get('return_to')!, url())), url());
    expect(done.pathname).toBe('/account');
    expect(jar.has('upstream_link')).toBe(false);
    expect(await f.connections()).toContainEqual({ provider_id: 'github', subject: '102', sub: 'alice' });

    const returning = new CookieJar();
    await walkUpstream(returning, url(), authorizePath('github'));
    expect((await f.session(returning)).user.sub).toBe('alice');
  });

  it('auto_link: a verified upstream address links the existing (verified) account at once', async () => {
    const jar = new CookieJar();
    f.oidc.signInAs('alice-corp');
    const landed = await walkUpstream(jar, url(), authorizePath('corp-auto', { return_to: '/account' }));
    expect(landed.pathname).toBe('/account');
    const { user, session } = await f.session(jar);
    expect([user.sub, session.amr]).toEqual(['alice', ['fed']]);
    expect(await f.connections()).toContainEqual({ provider_id: 'corp-auto', subject: 'alice-corp', sub: 'alice' });
  });

  it('auto_link never links to a config-managed account or an admin: LINK_REQUIRED, nothing linked, no session', async () => {
    await seedUser(f.idp, { sub: 'root', role: 'admin' });
    for (const [account, email] of [
      ['bob-corp', 'bob@example.com'],
      ['root-corp', 'root@example.com'],
    ] as const) {
      f.oidc.signInAs(account);
      const jar = new CookieJar();
      const landed = await walkUpstream(jar, url(), authorizePath('corp-auto', { return_to: '/account' }));
      expect(
        [landed.pathname, landed.searchParams.get('error'), landed.searchParams.get('login_hint')],
        account,
      ).toEqual(['/login', 'LINK_REQUIRED', email]);
      expect(jar.has('session'), account).toBe(false);
      expect((await f.connections()).filter((c) => c.subject === account)).toEqual([]);
    }
  });

  it('auto_link: an address the upstream does not assert verified asks for the sign-in instead', async () => {
    for (const [provider, account, play] of [
      ['github-auto', 'alice-unverified', () => f.github.signInAs('alice-unverified')],
      ['corp-auto', 'alice-unverified', () => f.oidc.signInAs('alice-unverified')],
    ] as const) {
      play();
      const landed = await walkUpstream(new CookieJar(), url(), authorizePath(provider));
      expect(landed.searchParams.get('error'), provider).toBe('LINK_REQUIRED');
      expect(
        (await f.connections())
          .filter((c) => c.provider_id === provider && c.subject !== 'alice-corp')
          .map((c) => c.subject),
      ).not.toContain(account);
    }
  });

  it('refuses a first sign-in whose address registration does not allow, or that gives none, creating nothing', async () => {
    const before = [await f.users(), await f.connections()];
    const cases: [string, () => void, string][] = [
      ['github', () => f.github.signInAs('outsider'), 'EMAIL_NOT_ALLOWED'],
      ['github', () => f.github.signInAs('nomail'), 'UPSTREAM_EMAIL_MISSING'],
      ['apple', () => f.apple.signInAs('000456.apple-hidden'), 'UPSTREAM_EMAIL_MISSING'],
      ['corp', () => f.oidc.signInAs('nomail'), 'UPSTREAM_EMAIL_MISSING'],
    ];
    for (const [provider, play, code] of cases) {
      play();
      const landed = await walkUpstream(new CookieJar(), url(), authorizePath(provider, { return_to: '/account' }));
      expect([landed.pathname, landed.searchParams.get('error'), landed.searchParams.get('return_to')], code).toEqual([
        '/login',
        code,
        '/account',
      ]);
    }
    expect([await f.users(), await f.connections()]).toEqual(before);
  });

  it('intent=link connects an upstream account to the signed-in user; one upstream account never serves two users', async () => {
    const anonymous = locationOf(
      await new CookieJar().fetch(new URL(authorizePath('github', { intent: 'link', return_to: '/account' }), url())),
      url(),
    );
    expect(anonymous.pathname).toBe('/login');
    expect(anonymous.searchParams.get('return_to')).toBe(
      '/api/auth/providers/github/authorize?intent=link&return_to=%2Faccount',
    );

    const bob = new CookieJar();
    await f.signInWithPassword(bob, 'bob@example.com');
    f.github.signInAs('bob-gh');
    const linked = await walkUpstream(bob, url(), authorizePath('github', { intent: 'link', return_to: '/account' }));
    expect(linked.pathname).toBe('/account');
    expect(await f.connections()).toContainEqual({ provider_id: 'github', subject: '106', sub: 'bob' });
    expect((await f.session(bob)).session.amr).toEqual(['pwd']);

    f.github.signInAs('bob-gh-2');
    const second = await walkUpstream(bob, url(), authorizePath('github', { intent: 'link', return_to: '/account' }));
    expect(second.searchParams.get('error')).toBe('ALREADY_CONNECTED');

    f.github.signInAs('grace');
    const taken = await walkUpstream(
      bob,
      url(),
      authorizePath('github-auto', { intent: 'link', return_to: '/account' }),
    );
    expect(taken.pathname).toBe('/account');
    const stolen = new CookieJar();
    await f.signInWithPassword(stolen, 'alice@example.com');
    const refused = await walkUpstream(
      stolen,
      url(),
      authorizePath('github-auto', { intent: 'link', return_to: '/account' }),
    );
    expect([refused.pathname, refused.searchParams.get('error')]).toEqual(['/login', 'CONNECTION_IN_USE']);
    expect(
      (await f.connections()).filter((c) => c.provider_id === 'github-auto' && c.subject === '101').map((c) => c.sub),
    ).toEqual(['bob']);
  });

  it('GET /api/connections lists them; DELETE refuses the last way in (409), removes others (204), 404 for none', async () => {
    const bob = new CookieJar();
    await f.signInWithPassword(bob, 'bob@example.com');
    const list = (await (await bob.fetch(`${url()}/api/connections`)).json()) as {
      connections: Record<string, unknown>[];
    };
    expect(list.connections.map((c) => [c.provider_id, c.type, c.display_name, c.email, c.available])).toEqual([
      ['github', 'github', 'GitHub', 'bob.github@users.example', true],
      ['github-auto', 'github', 'GitHub', 'grace@users.example', true],
    ]);
    expect(list.connections[0].linked_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const remove = (jar: CookieJar, provider: string) =>
      jar.fetch(`${url()}/api/connections/${provider}`, { method: 'DELETE', headers: { origin: url() } });
    expect((await remove(bob, 'github-auto')).status).toBe(204);
    const missing = await remove(bob, 'github-auto');
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'CONNECTION_NOT_FOUND']);

    // grace has no password and only her github connection.
    const grace = new CookieJar();
    f.github.signInAs('grace');
    await walkUpstream(grace, url(), authorizePath('github'));
    const last = await remove(grace, 'github');
    expect([last.status, ((await last.json()) as { code: string }).code]).toEqual([409, 'LAST_SIGN_IN_METHOD']);
    expect((await (await new CookieJar().fetch(`${url()}/api/connections`)).json()) as object).toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
