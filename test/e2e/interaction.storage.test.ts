import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe.each(databaseKinds)('sign-in and consent over HTTP on %s', (kind) => {
  let idp: RunningIdp;
  const request = (overrides: Record<string, string | undefined> = {}) => {
    const params = new URLSearchParams();
    const all: Record<string, string | undefined> = {
      client_id: 'web',
      redirect_uri: 'https://web.example.com/callback',
      response_type: 'code',
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      nonce: 'n-0S6',
      ...overrides,
    };
    for (const [name, value] of Object.entries(all)) if (value !== undefined) params.set(name, value);
    return `${idp.url}/oauth2/authorize?${params}`;
  };

  async function signIn(jar: CookieJar, email = 'alice@example.com'): Promise<void> {
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice', name: 'Alice Liddell' }), testUser({ sub: 'bob' })],
      clients: [
        testClient({ clientId: 'web' }),
        testClient({ clientId: 'spa', clientSecret: null, tokenEndpointAuthMethod: 'none' }),
      ],
      branding: { name: 'Acme ID', logoUrl: null, primaryColor: null },
    });
  });
  afterAll(() => idp.stop());

  it('walks /login → /consent → the client with code, state and iss', async () => {
    const jar = new CookieJar();
    const first = await jar.fetch(request());
    const login = locationOf(first, idp.url);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('return_to') ?? '';
    expect(returnTo.startsWith('/oauth2/authorize?')).toBe(true);

    const page = await jar.fetch(login);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Sign in · Acme ID</title>');

    await signIn(jar);
    const consent = locationOf(await jar.fetch(new URL(returnTo, idp.url)), idp.url);
    expect(consent.pathname).toBe('/consent');
    const consentReturnTo = consent.searchParams.get('return_to') ?? '';

    const described = await jar.fetch(`${idp.url}/api/consent?${new URLSearchParams({ return_to: consentReturnTo })}`);
    expect(await described.json()).toEqual({
      client: { client_id: 'web', name: 'Client web' },
      redirect_uri: 'https://web.example.com/callback',
      device: false,
      scopes: [
        { scope: 'openid', description: 'Sign you in with your account' },
        { scope: 'email', description: 'See your e-mail address' },
      ],
      // Not asked for the groups scope: nothing to name.
      groups: null,
    });
    const decided = await jar.fetch(`${idp.url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ return_to: consentReturnTo, decision: 'allow' }),
    });
    expect(decided.status).toBe(200);
    const { redirect_to } = (await decided.json()) as { redirect_to: string };
    const callback = locationOf(await jar.fetch(new URL(redirect_to, idp.url)), idp.url);
    expect(`${callback.origin}${callback.pathname}`).toBe('https://web.example.com/callback');
    expect([...callback.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
    expect(callback.searchParams.get('state')).toBe('xyz');
    expect(callback.searchParams.get('iss')).toBe(idp.url);
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers form_post with a self-posting form, also on POST /oauth2/authorize', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const body = new URL(request({ response_mode: 'form_post' })).searchParams;
    const response = await jar.fetch(`${idp.url}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://web.example.com' },
      body,
    });
    // Consent was given in the previous test: the answer goes straight to the client.
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<form method="post" action="https://web.example.com/callback">');
    expect(html).toMatch(/name="code" value="[A-Za-z0-9_-]{43}"/);
    expect(html).toContain('name="state" value="xyz"');
    expect(html).toContain(`name="iss" value="${idp.url}"`);
  });

  it('shows a redirect URI mismatch and an unknown client as an error page, never a redirect', async () => {
    for (const url of [request({ redirect_uri: 'https://evil.example/callback' }), request({ client_id: 'nobody' })]) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('Sign-in request rejected');
    }
  });

  it('shows malformed requests as an error page too: no parameters, an empty form, a repeated client_id', async () => {
    const attempts: [string, RequestInit][] = [
      [`${idp.url}/oauth2/authorize`, {}],
      [
        `${idp.url}/oauth2/authorize`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
      ],
      [`${request()}&client_id=spa`, {}],
    ];
    for (const [url, init] of attempts) {
      const response = await fetch(url, { ...init, redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
    }
  });

  it('refuses a public client without PKCE, in a redirect to the client', async () => {
    const response = await fetch(
      request({
        client_id: 'spa',
        redirect_uri: 'https://spa.example.com/callback',
        code_challenge: undefined,
        code_challenge_method: undefined,
      }),
      { redirect: 'manual' },
    );
    const location = locationOf(response, idp.url);
    expect(location.origin).toBe('https://spa.example.com');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'PKCE is required: send a code_challenge with code_challenge_method S256.',
      state: 'xyz',
      iss: idp.url,
    });
  });

  it('answers prompt=none without a session with login_required', async () => {
    const location = locationOf(await fetch(request({ prompt: 'none' }), { redirect: 'manual' }), idp.url);
    expect(location.searchParams.get('error')).toBe('login_required');
    expect(location.searchParams.get('iss')).toBe(idp.url);
  });

  it('answers Deny with access_denied', async () => {
    const jar = new CookieJar();
    await signIn(jar, 'bob@example.com');
    const consent = locationOf(await jar.fetch(request()), idp.url);
    const decided = await jar.fetch(`${idp.url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ return_to: consent.searchParams.get('return_to'), decision: 'deny' }),
    });
    const { redirect_to } = (await decided.json()) as { redirect_to: string };
    const callback = locationOf(await jar.fetch(new URL(redirect_to, idp.url)), idp.url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('xyz');
  });

  it('refuses open redirects through return_to', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    for (const evil of ['//evil.example/', '/\\evil.example/', 'https://evil.example/', '/\t/evil.example']) {
      const page = await fetch(`${idp.url}/login?${new URLSearchParams({ return_to: evil })}`, { redirect: 'manual' });
      expect(page.status).toBe(400);
      const consentPage = await fetch(`${idp.url}/consent?${new URLSearchParams({ return_to: evil })}`, {
        redirect: 'manual',
      });
      expect(consentPage.status).toBe(400);
      const api = await jar.fetch(`${idp.url}/api/consent?${new URLSearchParams({ return_to: evil })}`);
      expect(api.status).toBe(400);
      expect(((await api.json()) as { code: string }).code).toBe('INVALID_RETURN_TO');
    }
    const notAuthorize = await jar.fetch(`${idp.url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ return_to: '/api/admin/users', decision: 'allow' }),
    });
    expect(notAuthorize.status).toBe(400);
  });

  it('asks for a session on the consent API and refuses a cross-origin decision', async () => {
    const anonymous = await fetch(`${idp.url}/api/consent?return_to=${encodeURIComponent('/oauth2/authorize?x=1')}`);
    expect(anonymous.status).toBe(401);
    const jar = new CookieJar();
    await signIn(jar);
    const crossOrigin = await jar.fetch(`${idp.url}/api/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ return_to: '/oauth2/authorize?x=1', decision: 'allow' }),
    });
    expect(crossOrigin.status).toBe(403);
  });

  it('remembers the accounts of this browser and switches between them', async () => {
    const jar = new CookieJar();
    await signIn(jar, 'alice@example.com');
    await jar.fetch(request({ prompt: 'none' }));
    await signIn(jar, 'bob@example.com');
    const listed = await jar.fetch(`${idp.url}/api/auth/accounts?client_id=web`);
    expect(await listed.json()).toEqual({
      accounts: [
        { sub: 'bob', email: 'bob@example.com', name: null, current: true },
        { sub: 'alice', email: 'alice@example.com', name: 'Alice Liddell', current: false },
      ],
    });
    const selected = await jar.fetch(`${idp.url}/api/auth/accounts/select`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ sub: 'alice' }),
    });
    expect(selected.status).toBe(200);
    expect(((await selected.json()) as { user: { sub: string } }).user.sub).toBe('alice');
    const session = await jar.fetch(`${idp.url}/api/auth/session`);
    expect(JSON.stringify(await session.json())).toContain('"sub":"alice"');

    const unknown = await jar.fetch(`${idp.url}/api/auth/accounts/select`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ sub: 'carol' }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      code: 'ACCOUNT_NOT_REMEMBERED',
      message: 'The account is not remembered in this browser session.',
    });
    const stranger = await fetch(`${idp.url}/api/auth/accounts`);
    expect(await stranger.json()).toEqual({ accounts: [] });
  });

  it('forgets a remembered account: its session in this browser ends and it leaves the list', async () => {
    const jar = new CookieJar();
    await signIn(jar, 'alice@example.com');
    await jar.fetch(request({ prompt: 'none' }));
    await signIn(jar, 'bob@example.com');
    const forget = (sub: string, origin = idp.url) =>
      jar.fetch(`${idp.url}/api/auth/accounts/forget`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ sub }),
      });
    // Another site cannot make the browser forget (or sign out) an account.
    expect((await forget('alice', 'https://evil.example')).status).toBe(403);
    expect((await forget('carol')).status).toBe(400);
    const forgotten = await forget('alice');
    expect(forgotten.status).toBe(200);
    expect(await forgotten.json()).toEqual({
      accounts: [{ sub: 'bob', email: 'bob@example.com', name: null, current: true }],
    });
    const select = await jar.fetch(`${idp.url}/api/auth/accounts/select`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ sub: 'alice' }),
    });
    expect(select.status).toBe(400);
    // The current account forgotten: this browser is signed out.
    expect(await (await forget('bob')).json()).toEqual({ accounts: [] });
    expect((await jar.fetch(`${idp.url}/api/auth/session`)).status).toBe(401);
  });

  it('sends prompt=select_account to the sign-in page with the account choice', async () => {
    const jar = new CookieJar();
    await signIn(jar);
    const location = locationOf(await jar.fetch(request({ prompt: 'select_account' })), idp.url);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('select_account')).toBe('true');
  });
});
