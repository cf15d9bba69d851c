import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * The user's consents (GET /api/consents, DELETE /api/consents/{client_id})
 * and the audit events they leave (GET /api/admin/events), over HTTP on
 * both engines.
 */
describe.each(databaseKinds)('consent management and the event log on %s', (kind) => {
  let idp: RunningIdp;
  const client = testClient({ clientId: 'web', scopes: ['openid', 'email', 'offline_access'] });
  const json = { 'content-type': 'application/json' };

  const authorizeUrl = () =>
    `${idp.url}/oauth2/authorize?${new URLSearchParams({
      client_id: 'web',
      redirect_uri: 'https://web.example.com/callback',
      response_type: 'code',
      scope: 'openid email offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      nonce: 'n',
      prompt: 'consent',
    })}`;

  async function signIn(jar: CookieJar, email: string) {
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
  }

  /** Authorize → consent (allow) → code → tokens; resolves with the refresh token. */
  async function consentAndGetRefreshToken(jar: CookieJar): Promise<string> {
    const consentPage = locationOf(await jar.fetch(authorizeUrl()), idp.url);
    expect(consentPage.pathname).toBe('/consent');
    const decided = await jar.fetch(`${idp.url}/api/consent`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ return_to: consentPage.searchParams.get('return_to'), decision: 'allow' }),
    });
    const { redirect_to } = (await decided.json()) as { redirect_to: string };
    const callback = locationOf(await jar.fetch(new URL(redirect_to, idp.url)), idp.url);
    const tokens = await token({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: 'https://web.example.com/callback',
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    return ((await tokens.json()) as { refresh_token: string }).refresh_token;
  }

  const token = (form: Record<string, string>) =>
    fetch(`${idp.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`web:${client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams(form),
    });

  beforeAll(async () => {
    idp = await startIdp(kind, {
      users: [
        testUser({ sub: 'alice' }),
        testUser({ sub: 'root', email: 'root@example.com', role: 'admin' }),
        testUser({ sub: 'eve', email: 'eve@example.com' }),
      ],
      clients: [client],
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
    });
  });
  afterAll(() => idp.stop());

  it('lists the consent, withdraws it (tokens stop, the next authorization asks again), and 404s a second time', async () => {
    const jar = new CookieJar();
    await signIn(jar, 'alice@example.com');
    const refreshToken = await consentAndGetRefreshToken(jar);

    const listed = await jar.fetch(`${idp.url}/api/consents`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(await listed.json()).toEqual({
      consents: [
        {
          client_id: 'web',
          client_name: 'Client web',
          scopes: ['openid', 'email', 'offline_access'],
          granted_at: expect.stringMatching(/Z$/),
        },
      ],
    });

    const foreign = await jar.fetch(`${idp.url}/api/consents/web`, {
      method: 'DELETE',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const revoked = await jar.fetch(`${idp.url}/api/consents/web`, { method: 'DELETE', headers: { origin: idp.url } });
    expect(revoked.status).toBe(204);
    expect(await (await jar.fetch(`${idp.url}/api/consents`)).json()).toEqual({ consents: [] });

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });

    const withoutPrompt = authorizeUrl().replace('&prompt=consent', '');
    expect(locationOf(await jar.fetch(withoutPrompt), idp.url).pathname).toBe('/consent');

    const again = await jar.fetch(`${idp.url}/api/consents/web`, { method: 'DELETE', headers: { origin: idp.url } });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      code: 'CONSENT_NOT_FOUND',
      message: 'You have not given this application access.',
    });
  });

  it('refuses the consent routes without a session', async () => {
    expect((await fetch(`${idp.url}/api/consents`)).status).toBe(401);
    expect(
      (await fetch(`${idp.url}/api/consents/web`, { method: 'DELETE', headers: { origin: idp.url } })).status,
    ).toBe(401);
  });

  it('shows the consent events to an admin, filtered and paged, and refuses bad filters', async () => {
    const admin = new CookieJar();
    await signIn(admin, 'root@example.com');
    const list = async (query: Record<string, string>) => {
      const response = await admin.fetch(`${idp.url}/api/admin/events?${new URLSearchParams(query)}`);
      return {
        status: response.status,
        body: (await response.json()) as {
          events: { type: string; actor: string }[];
          pagination: unknown;
          code?: string;
        },
      };
    };

    const granted = await list({ type: 'consent.granted', actor: 'alice' });
    expect(granted.status).toBe(200);
    expect(granted.body.events).toEqual([
      {
        id: expect.any(Number),
        time: expect.stringMatching(/Z$/),
        type: 'consent.granted',
        actor: 'alice',
        actor_email: 'alice@example.com',
        subject: 'alice',
        subject_email: 'alice@example.com',
        client_address: '127.0.0.1',
        client_id: 'web',
        detail: { scopes: ['openid', 'email', 'offline_access'] },
      },
    ]);
    const revoked = await list({ type: 'consent.revoked', subject: 'alice' });
    expect(revoked.body.events).toMatchObject([
      { type: 'consent.revoked', actor: 'alice', client_id: 'web', detail: {} },
    ]);

    const all = await list({ page_size: '1' });
    expect(all.body.pagination).toEqual({ page: 1, page_size: 1, total: expect.any(Number) });
    const future = await list({ since: '2999-01-01T00:00:00Z' });
    expect(future.body.events).toEqual([]);
    const past = await list({ until: '2000-01-01T00:00:00Z' });
    expect(past.body.events).toEqual([]);

    const refusedQueries: Record<string, string>[] = [
      { type: 'nope' },
      { since: 'yesterday' },
      { until: '2026-13-45' },
      { page_size: '101' },
      { actor: '' },
    ];
    for (const bad of refusedQueries) {
      const refused = await list(bad);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it("records an admin's create, update and delete of a user (field names only), and nothing for a refused change", async () => {
    const admin = new CookieJar();
    await signIn(admin, 'root@example.com');
    const call = (method: string, path: string, body?: unknown) =>
      admin.fetch(`${idp.url}${path}`, {
        method,
        headers: { ...json, origin: idp.url },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await call('POST', '/api/admin/users', {
      email: 'carol@example.com',
      password: 'a long enough password',
    });
    const { user } = (await created.json()) as { user: { sub: string } };
    expect((await call('PATCH', `/api/admin/users/${user.sub}`, { role: 'admin', email_verified: true })).status).toBe(
      200,
    );
    expect((await call('PATCH', `/api/admin/users/${user.sub}`, { email: 'root@example.com' })).status).toBe(409);
    expect((await call('DELETE', `/api/admin/users/${user.sub}`)).status).toBe(200);

    const response = await admin.fetch(`${idp.url}/api/admin/events?${new URLSearchParams({ subject: user.sub })}`);
    const { events } = (await response.json()) as {
      events: { type: string; actor: string; detail: unknown; client_address: string }[];
    };
    expect(events.map(({ type, actor, detail, client_address }) => ({ type, actor, detail, client_address }))).toEqual([
      { type: 'admin.user_deleted', actor: 'root', detail: {}, client_address: '127.0.0.1' },
      {
        type: 'admin.user_updated',
        actor: 'root',
        detail: { fields: ['role', 'email_verified'] },
        client_address: '127.0.0.1',
      },
      { type: 'admin.user_created', actor: 'root', detail: { role: 'user' }, client_address: '127.0.0.1' },
    ]);
    expect(JSON.stringify(events)).not.toContain('a long enough password');
    // E-mails are looked up when the log is read (the log keeps subs only): a soft-deleted user still has one.
    expect(
      (events as unknown as { actor_email: string; subject_email: string }[]).map((e) => [
        e.actor_email,
        e.subject_email,
      ]),
    ).toEqual(Array(3).fill(['root@example.com', 'carol@example.com']));
    // An actor that is no user (idp apply) has none.
    const applied = await admin.fetch(`${idp.url}/api/admin/events?type=config.applied`);
    const appliedEvents = ((await applied.json()) as { events: { actor: string; actor_email: string | null }[] })
      .events;
    expect(appliedEvents.length).toBeGreaterThan(0);
    for (const event of appliedEvents)
      expect(event).toMatchObject({ actor: 'config', actor_email: null, subject_email: null });
  });

  it('records sign-ins that succeed, fail or are rate limited, and sign-outs, never with the password', async () => {
    const attempt = (email: string, password: string, address: string) =>
      fetch(`${idp.url}/api/auth/login`, {
        method: 'POST',
        headers: { ...json, origin: idp.url, 'x-forwarded-for': address },
        body: JSON.stringify({ email, password }),
      });
    expect((await attempt('alice@example.com', 'wrong password 1', '10.9.9.9')).status).toBe(401);
    expect((await attempt('nobody@example.com', 'wrong password 2', '10.9.9.9')).status).toBe(401);
    const jar = new CookieJar();
    await signIn(jar, 'alice@example.com');
    expect(
      (await jar.fetch(`${idp.url}/api/auth/logout`, { method: 'POST', headers: { origin: idp.url } })).status,
    ).toBe(204);

    const of = async (type: string) =>
      (
        await idp.database.storage.repositories.events.list(idp.database.storage.db, {
          type: type as 'sign_out',
          page: 1,
          pageSize: 100,
        })
      ).events;
    expect((await of('sign_in.failed')).map((e) => [e.actor, e.subject, e.detail])).toEqual([
      ['unknown', null, { method: 'password' }],
      ['alice', 'alice', { method: 'password' }],
    ]);
    expect((await of('sign_in.succeeded')).filter((e) => e.actor === 'alice').at(0)).toMatchObject({
      subject: 'alice',
      detail: { amr: ['pwd'] },
    });
    expect((await of('sign_out')).map((e) => [e.actor, e.clientAddress])).toEqual([['alice', '127.0.0.1']]);
    const everything = JSON.stringify(
      await idp.database.storage.repositories.events.list(idp.database.storage.db, { page: 1, pageSize: 100 }),
    );
    expect(everything).not.toContain('wrong password');

    // Over the account limit (security.login_rate_limit.max_attempts): the refused attempt is its own event.
    for (let i = 0; i < 10; i++) await attempt('eve@example.com', `guess ${i}`, `10.8.0.${i}`);
    expect((await of('sign_in.rate_limited')).map((e) => e.actor)).toContain('eve');
  });

  it('records a password change and an account deletion once each, and nothing for a refused attempt', async () => {
    const admin = new CookieJar();
    await signIn(admin, 'root@example.com');
    const created = await admin.fetch(`${idp.url}/api/admin/users`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ email: 'dora@example.com', password: 'first password 123', email_verified: true }),
    });
    const { user } = (await created.json()) as { user: { sub: string } };
    const jar = new CookieJar();
    expect(
      (
        await jar.fetch(`${idp.url}/api/auth/login`, {
          method: 'POST',
          headers: { ...json, origin: idp.url },
          body: JSON.stringify({ email: 'dora@example.com', password: 'first password 123' }),
        })
      ).status,
    ).toBe(200);
    const send = (method: string, path: string, body: unknown) =>
      jar.fetch(`${idp.url}${path}`, { method, headers: { ...json, origin: idp.url }, body: JSON.stringify(body) });
    expect(
      (await send('POST', '/api/user/password', { current_password: 'not it', new_password: 'second password 123' }))
        .status,
    ).toBe(401);
    expect(
      (
        await send('POST', '/api/user/password', {
          current_password: 'first password 123',
          new_password: 'second password 123',
        })
      ).status,
    ).toBe(204);
    expect((await send('DELETE', '/api/user', { password: 'first password 123' })).status).toBe(401);
    expect((await send('DELETE', '/api/user', { password: 'second password 123' })).status).toBe(200);
    const { events } = await idp.database.storage.repositories.events.list(idp.database.storage.db, {
      actor: user.sub,
      page: 1,
      pageSize: 20,
    });
    expect(events.map((e) => e.type).reverse()).toEqual(['sign_in.succeeded', 'password.changed', 'account.deleted']);
    expect(events[0].detail).toEqual({ erase_after: expect.stringMatching(/Z$/) });
  });

  it('keeps the event log to admins', async () => {
    const user = new CookieJar();
    await signIn(user, 'alice@example.com');
    expect((await user.fetch(`${idp.url}/api/admin/events`)).status).toBe(403);
    expect((await fetch(`${idp.url}/api/admin/events`)).status).toBe(401);
  });
});
