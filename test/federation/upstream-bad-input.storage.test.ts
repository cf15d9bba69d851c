import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { databaseKinds } from '../support/databases.js';
import { CookieJar, locationOf } from '../e2e/support/cookie-jar.js';
import { startFederationFixture, type FederationFixture } from './support/federation-fixture.js';
import { authorizePath, walkUpstream } from './support/walk-upstream.js';

/**
 * Issue 13, bad input: every way an upstream sign-in can go wrong ends on
 * /login?error=CODE (or a documented JSON error), never a 500, and leaves
 * no user and no connection behind, on each database.
 */
describe.each(databaseKinds)('upstream sign-in bad input on %s', (kind) => {
  let f: FederationFixture;
  let before: unknown;
  const url = () => f.idp.url;
  const snapshot = async () => [await f.users(), await f.connections()];

  beforeAll(async () => {
    f = await startFederationFixture(kind);
  });
  afterAll(() => f?.stop());
  beforeEach(async () => {
    before = await snapshot();
  });
  afterEach(async () => {
    f.github.behaviour.authorize = 'approve';
    Object.assign(f.github.behaviour, { token: 'none', user: 'none', emails: 'none' });
    f.apple.behaviour.token = 'none';
    f.apple.behaviour.tamper = {};
    expect(await snapshot()).toEqual(before);
  });

  /** Starts a github sign-in in `jar` and returns the callback URL the upstream sends the browser to. */
  async function callbackUrl(jar: CookieJar, provider = 'github'): Promise<URL> {
    const upstream = locationOf(
      await jar.fetch(new URL(authorizePath(provider, { return_to: '/account' }), url())),
      url(),
    );
    return locationOf(await jar.fetch(upstream), upstream);
  }
  const errorOf = (location: URL) => [location.pathname, location.searchParams.get('error')];

  it("a callback without state, with an unknown one, a reused one, an expired one, or another browser's: INVALID_STATE", async () => {
    f.github.signInAs('grace');
    const jar = new CookieJar();
    const missing = new URL(`${url()}/api/auth/providers/github/callback?code=abc`);
    expect(errorOf(locationOf(await jar.fetch(missing), url()))).toEqual(['/login', 'INVALID_STATE']);
    const unknown = new URL(`${url()}/api/auth/providers/github/callback?code=abc&state=never-issued`);
    expect(errorOf(locationOf(await jar.fetch(unknown), url()))).toEqual(['/login', 'INVALID_STATE']);

    const foreign = await callbackUrl(jar);
    const otherBrowser = new CookieJar();
    expect(errorOf(locationOf(await otherBrowser.fetch(foreign), url()))).toEqual(['/login', 'INVALID_STATE']);

    const expired = await callbackUrl(jar);
    await f.idp.database.db('upstream_states').update({ expires_at: 1 });
    expect(errorOf(locationOf(await jar.fetch(expired), url()))).toEqual(['/login', 'INVALID_STATE']);

    const once = await callbackUrl(jar);
    expect(locationOf(await jar.fetch(once), url()).pathname).toBe('/account');
    await jar.fetch(`${url()}/api/auth/logout`, { method: 'POST', headers: { origin: url() } });
    before = await snapshot();
    expect(errorOf(locationOf(await jar.fetch(once), url()))).toEqual(['/login', 'INVALID_STATE']);
    // A state is for the provider it was issued for.
    const crossed = await callbackUrl(jar);
    crossed.pathname = '/api/auth/providers/github-auto/callback';
    expect(errorOf(locationOf(await jar.fetch(crossed), url()))).toEqual(['/login', 'INVALID_STATE']);
  });

  it("a callback without the binding cookie, or with another browser's, is refused and does not spend the state: the real browser still signs in", async () => {
    f.github.signInAs('grace');
    const jar = new CookieJar();
    const callback = await callbackUrl(jar);
    const other = new CookieJar();
    // Another browser that started a sign-in of its own holds a binding, just not this one.
    await callbackUrl(other);
    for (const [who, browser] of [
      ['no binding cookie', new CookieJar()],
      ["another browser's binding", other],
    ] as const)
      expect(errorOf(locationOf(await browser.fetch(callback), url())), who).toEqual(['/login', 'INVALID_STATE']);
    const landed = locationOf(await jar.fetch(callback), url());
    expect(landed.pathname).toBe('/account');
    expect((await f.session(jar)).user.email).toBe('grace@users.example');
    await jar.fetch(`${url()}/api/auth/logout`, { method: 'POST', headers: { origin: url() } });
    before = await snapshot();
  });

  it('an upstream error answer (the user said no): UPSTREAM_ERROR, back to where they came from', async () => {
    f.github.behaviour.authorize = 'deny';
    const landed = await walkUpstream(new CookieJar(), url(), authorizePath('github', { return_to: '/account' }));
    expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'UPSTREAM_ERROR', return_to: '/account' });
  });

  it('a token endpoint that refuses, fails, answers non-JSON, or never answers (bounded): UPSTREAM_ERROR', async () => {
    for (const how of ['refuse', 'error_status', 'non_json', 'hang'] as const) {
      f.github.behaviour.token = how;
      const started = Date.now();
      const landed = await walkUpstream(new CookieJar(), url(), authorizePath('github'));
      expect(errorOf(landed), how).toEqual(['/login', 'UPSTREAM_ERROR']);
      // The fixture's idp waits one second for an upstream (10 s in production).
      expect(Date.now() - started, how).toBeLessThan(5000);
    }
  });

  it('user and e-mail endpoints that answer non-JSON, fail, or hang: UPSTREAM_ERROR', async () => {
    for (const [endpoint, how] of [
      ['user', 'non_json'],
      ['user', 'error_status'],
      ['emails', 'hang'],
      ['emails', 'non_json'],
    ] as const) {
      f.github.behaviour[endpoint] = how;
      f.github.signInAs('outsider');
      const landed = await walkUpstream(new CookieJar(), url(), authorizePath('github'));
      expect(errorOf(landed), `${endpoint} ${how}`).toEqual(['/login', 'UPSTREAM_ERROR']);
      f.github.behaviour[endpoint] = 'none';
    }
  });

  it('an ID token with a wrong issuer, audience, nonce, signature or expiry, or none at all: UPSTREAM_ERROR', async () => {
    f.apple.signInAs('000123.apple-ada');
    const spoilt = [
      { iss: 'https://appleid.apple.com' },
      { aud: 'someone-else' },
      { nonce: 'replayed-nonce' },
      { foreignKey: true },
      { expiresIn: -600 },
      { omit: true },
    ];
    for (const tamper of spoilt) {
      f.apple.behaviour.tamper = tamper;
      const landed = await walkUpstream(new CookieJar(), url(), authorizePath('apple'));
      expect(errorOf(landed), JSON.stringify(tamper)).toEqual(['/login', 'UPSTREAM_ERROR']);
    }
    f.apple.behaviour.token = 'non_json';
    expect(errorOf(await walkUpstream(new CookieJar(), url(), authorizePath('apple')))).toEqual([
      '/login',
      'UPSTREAM_ERROR',
    ]);
  });

  it('a disabled or unknown provider: 404 PROVIDER_NOT_FOUND to start, PROVIDER_NOT_FOUND at the callback', async () => {
    for (const provider of ['off', 'nope']) {
      const started = await new CookieJar().fetch(new URL(authorizePath(provider), url()));
      expect([started.status, await started.json()]).toEqual([
        404,
        { code: 'PROVIDER_NOT_FOUND', message: 'The sign-in provider is unknown or not enabled.' },
      ]);
      const back = await new CookieJar().fetch(`${url()}/api/auth/providers/${provider}/callback?code=x&state=y`);
      expect(errorOf(locationOf(back, url()))).toEqual(['/login', 'PROVIDER_NOT_FOUND']);
    }
  });

  it('a return_to that is not a path here, or an unknown intent: 400 before anything starts', async () => {
    for (const [query, code] of [
      [{ return_to: 'https://evil.example/' }, 'INVALID_RETURN_TO'],
      [{ return_to: '//evil.example' }, 'INVALID_RETURN_TO'],
      [{ intent: 'steal' }, 'VALIDATION_ERROR'],
    ] as const) {
      const response = await new CookieJar().fetch(new URL(authorizePath('github', query), url()));
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, code]);
    }
    const link = await new CookieJar().fetch(`${url()}/api/auth/providers/github/link?return_to=https://evil.example`);
    expect(link.status).toBe(400);
  });

  it('completing a link without a pending one in this browser: INVALID_STATE', async () => {
    const jar = new CookieJar();
    await f.signInWithPassword(jar, 'alice@example.com');
    const landed = locationOf(await jar.fetch(`${url()}/api/auth/providers/github/link?return_to=/account`), url());
    expect([...errorOf(landed), landed.searchParams.get('return_to')]).toEqual(['/login', 'INVALID_STATE', '/account']);
  });

  it('a link whose session changed while at the upstream: INVALID_STATE, nothing linked', async () => {
    const jar = new CookieJar();
    await f.signInWithPassword(jar, 'bob@example.com');
    const upstream = locationOf(
      await jar.fetch(new URL(authorizePath('github', { intent: 'link', return_to: '/account' }), url())),
      url(),
    );
    f.github.signInAs('bob-gh');
    const callback = locationOf(await jar.fetch(upstream), upstream);
    await f.signInWithPassword(jar, 'alice@example.com');
    expect(errorOf(locationOf(await jar.fetch(callback), url()))).toEqual(['/login', 'INVALID_STATE']);
  });

  it('a provider removed from the file stops at once; its connections stay, unusable, and work again when it returns', async () => {
    f.github.signInAs('grace');
    const grace = new CookieJar();
    await walkUpstream(grace, url(), authorizePath('github'));
    before = await snapshot();
    const config = f.idp.config;
    await applyConfig(f.idp.database.storage, {
      ...config,
      identityProviders: config.identityProviders.filter((p) => p.id !== 'github'),
    });
    try {
      expect((await new CookieJar().fetch(new URL(authorizePath('github'), url()))).status).toBe(404);
      const list = (await (await grace.fetch(`${url()}/api/connections`)).json()) as {
        connections: Record<string, unknown>[];
      };
      expect(list.connections).toEqual([
        expect.objectContaining({ provider_id: 'github', type: null, display_name: 'github', available: false }),
      ]);
      const removal = await grace.fetch(`${url()}/api/connections/github`, {
        method: 'DELETE',
        headers: { origin: url() },
      });
      expect(removal.status).toBe(409);
    } finally {
      await applyConfig(f.idp.database.storage, config);
    }
    const back = new CookieJar();
    await walkUpstream(back, url(), authorizePath('github'));
    expect((await f.session(back)).user.email).toBe('grace@users.example');
  });
});

describe.each(databaseKinds)(
  'upstream sign-in with registration disabled and a second factor for everyone on %s',
  (kind) => {
    let f: FederationFixture;
    const start = () =>
      startFederationFixture(
        kind,
        { enabled: false, allowedEmailPatterns: [] },
        { auth: { passwordMinLength: 8, secondFactor: 'required', totpIssuer: null, passkeysEnabled: true } },
      );
    beforeAll(async () => {
      f = await start();
    });
    afterAll(() => f?.stop());

    it('a first sign-in is REGISTRATION_DISABLED and creates nothing; an existing account still links, and waits for its second factor', async () => {
      const before = [await f.users(), await f.connections()];
      f.github.signInAs('grace');
      const landed = await walkUpstream(new CookieJar(), f.idp.url, authorizePath('github', { return_to: '/account' }));
      expect(Object.fromEntries(landed.searchParams)).toEqual({
        error: 'REGISTRATION_DISABLED',
        return_to: '/account',
      });
      expect([await f.users(), await f.connections()]).toEqual(before);

      f.oidc.signInAs('alice-corp');
      const jar = new CookieJar();
      const pending = await walkUpstream(jar, f.idp.url, authorizePath('corp-auto', { return_to: '/account' }));
      expect(pending.pathname + pending.search).toBe('/login/second-factor?return_to=%2Faccount');
      expect(jar.has('session')).toBe(true);
      // A pending session is no session for the API until the second factor is given.
      expect((await jar.fetch(`${f.idp.url}/api/auth/session`)).status).toBe(401);
      expect(await f.connections()).toContainEqual({ provider_id: 'corp-auto', subject: 'alice-corp', sub: 'alice' });
    });
  },
);
