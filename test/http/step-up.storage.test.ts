import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient, testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock, totpCode } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { UNAUTHORIZED } from '../support/spec-shapes.js';

/**
 * The step-up a client's `second_factor: required` asks for (docs/http-api.md, "Step-up for a
 * client"; docs/oidc.md, step clientSecondFactor): the authorization endpoint sends a session
 * without a second factor to the step-up page and leaves the session alone; POST
 * /api/auth/step-up makes it a pending one under a new cookie value, which completes with the
 * user's factor or, for a user without one, its enrolment, and then gets its code.
 */
const origin = 'http://localhost:8080';
const step = 30_000;
const t0 = 63_500_000 * step;
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const grafana = 'https://grafana.example.com/callback';

describe.each(databaseKinds)("a client's second factor on %s", (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  const browser = () => browserAt(t, `10.9.0.${++addresses}`);

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
        clients: [
          testClient({
            clientId: 'grafana',
            name: 'Grafana',
            skipConsent: true,
            access: { groups: null, roles: null, secondFactor: 'required' },
          }),
          testClient({ clientId: 'wiki', skipConsent: true }),
        ],
      },
      { clock },
    );
    await applyConfig(t.database.storage, t.config);
  });
  afterAll(() => t.destroy());

  const authorizePath = (clientId: string, extra: Record<string, string> = {}) =>
    `/oauth2/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: `https://${clientId}.example.com/callback`,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
      nonce: 'n',
      ...extra,
    })}`;
  const locationOf = (response: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(302);
    return new URL(String(response.headers.location), origin);
  };
  const amrOf = async (b: ReturnType<typeof browser>, cookie: string) => {
    const response = await b.call('GET', '/api/auth/session', cookie);
    expect(response.statusCode).toBe(200);
    return response.json().session.amr as string[];
  };

  it('sends a session without a second factor to the step-up page and leaves it signed in; prompt=none is interaction_required', async () => {
    await seedUser(t, { sub: 'plain' });
    const b = browser();
    const { cookie } = await b.login('plain@example.com');
    const page = locationOf(await b.call('GET', authorizePath('grafana'), cookie));
    expect(page.pathname).toBe('/login/second-factor');
    expect(page.searchParams.get('step_up')).toBe('true');
    expect(page.searchParams.get('return_to')).toBe(authorizePath('grafana'));
    // The GET changed nothing: any site can make a browser send it.
    expect(await amrOf(b, cookie)).toEqual(['pwd']);

    const silent = locationOf(await b.call('GET', authorizePath('grafana', { prompt: 'none' }), cookie));
    expect(`${silent.origin}${silent.pathname}`).toBe(grafana);
    expect(Object.fromEntries(silent.searchParams)).toMatchObject({ error: 'interaction_required', state: 'st' });

    // A client without the rule issues its code to the same session.
    const wiki = locationOf(await b.call('GET', authorizePath('wiki'), cookie));
    expect(wiki.origin).toBe('https://wiki.example.com');
    expect(wiki.searchParams.get('code')).toEqual(expect.any(String));

    const shown = await b.call('GET', `${page.pathname}${page.search}`, cookie);
    expect(shown.statusCode).toBe(200);
    expect(shown.payload).toContain('Grafana asks for a second factor</h1>');
    expect(shown.payload).toContain('id="step-up-form"');
    // Without step_up, or once it has a factor, a signed-in session goes on to return_to.
    const plainPage = await b.call(
      'GET',
      `/login/second-factor?${new URLSearchParams({ return_to: '/account' })}`,
      cookie,
    );
    expect(locationOf(plainPage).pathname).toBe('/account');
  });

  it('steps a user without a factor up through enrolment: the old cookie dies, the pending one may only enrol, the app makes it full with otp', async () => {
    await seedUser(t, { sub: 'enrols' });
    const b = browser();
    const { cookie: signedIn } = await b.login('enrols@example.com');
    const stepped = await b.call('POST', '/api/auth/step-up', signedIn, {});
    expect(stepped.statusCode).toBe(200);
    expect(stepped.json()).toEqual({ status: 'second_factor_required', factors: [], enrolment_required: true });
    const pending = sessionCookieOf(stepped.headers['set-cookie']);
    expect(pending).not.toBe(signedIn);

    // The old session id stops working at once, for every route, the step-up included.
    for (const [method, url] of [
      ['GET', '/api/auth/session'],
      ['POST', '/api/auth/step-up'],
    ] as const) {
      const response = await b.call(method, url, signedIn, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    }
    // The pending session is no signed-in one: no session, no code.
    expect((await b.call('GET', '/api/auth/session', pending)).statusCode).toBe(401);
    expect(locationOf(await b.call('GET', authorizePath('grafana'), pending)).pathname).toBe('/login');
    const page = await b.call(
      'GET',
      `/login/second-factor?${new URLSearchParams({ return_to: authorizePath('grafana'), step_up: 'true' })}`,
      pending,
    );
    expect(page.payload).toContain('<p class="intro">Grafana asks for a second step when you sign in.');
    expect(page.payload).toContain('id="app-start"');

    const { cookie: full } = await b.enrolTotp(pending, clock.now());
    expect(full).not.toBe(pending);
    expect(await amrOf(b, full)).toEqual(['pwd', 'otp']);
    const done = locationOf(await b.call('GET', authorizePath('grafana'), full));
    expect(`${done.origin}${done.pathname}`).toBe(grafana);
    expect(done.searchParams.get('code')).toEqual(expect.any(String));
    // Nothing left to step up: the page goes on to return_to, the route answers 409.
    const stepUpPage = `/login/second-factor?${new URLSearchParams({ return_to: '/account', step_up: 'true' })}`;
    expect(locationOf(await b.call('GET', stepUpPage, full)).pathname).toBe('/account');
    const again = await b.call('POST', '/api/auth/step-up', full, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'STEP_UP_NOT_NEEDED',
      message: 'This session was signed in with a second factor already.',
    });
  });

  it('asks a user who added an app after signing in for its code: pending → TOTP → full session with otp', async () => {
    await seedUser(t, { sub: 'later' });
    const b = browser();
    const { cookie: signedIn } = await b.login('later@example.com');
    // Set up from the signed-in session: it keeps its cookie and its amr.
    const { secret } = await b.enrolTotp(signedIn, clock.now());
    expect(await amrOf(b, signedIn)).toEqual(['pwd']);
    expect(locationOf(await b.call('GET', authorizePath('grafana'), signedIn)).pathname).toBe('/login/second-factor');

    const stepped = await b.call('POST', '/api/auth/step-up', signedIn);
    expect(stepped.json()).toEqual({
      status: 'second_factor_required',
      factors: ['totp', 'recovery_code'],
      enrolment_required: false,
    });
    const pending = sessionCookieOf(stepped.headers['set-cookie']);
    // It has a factor to use: registering another one would skip it.
    expect((await b.call('POST', '/api/user/totp', pending)).statusCode).toBe(401);

    clock.advance(step);
    const verified = await b.call('POST', '/api/auth/login/totp', pending, { code: totpCode(secret, clock.now()) });
    expect(verified.statusCode).toBe(200);
    const full = sessionCookieOf(verified.headers['set-cookie']);
    const session = (await b.call('GET', '/api/auth/session', full)).json().session;
    expect(session).toMatchObject({ amr: ['pwd', 'otp'], auth_time: new Date(clock.now()).toISOString() });
    expect(locationOf(await b.call('GET', authorizePath('grafana'), full)).searchParams.get('code')).toEqual(
      expect.any(String),
    );
  });

  it('completes the step-up of a user with a passkey with that passkey: amr pwd and hwk', async () => {
    await seedUser(t, { sub: 'keyholder' });
    const b = browser();
    const { cookie: signedIn } = await b.login('keyholder@example.com');
    const device = new SoftwareAuthenticator(origin);
    const creation = (await b.call('POST', '/api/user/passkeys/options', signedIn)).json();
    const registered = await b.call('POST', '/api/user/passkeys', signedIn, {
      response: device.register(creation as never),
      name: 'Laptop',
    });
    expect(registered.statusCode).toBe(201);

    const stepped = await b.call('POST', '/api/auth/step-up', signedIn, {});
    expect(stepped.json()).toMatchObject({ factors: ['passkey'], enrolment_required: false });
    const pending = sessionCookieOf(stepped.headers['set-cookie']);
    const request = (await b.call('POST', '/api/auth/passkey/options', pending, {})).json();
    const verified = await b.call('POST', '/api/auth/passkey/verify', pending, {
      response: device.assert(request as never),
    });
    expect(verified.statusCode).toBe(200);
    expect(await amrOf(b, sessionCookieOf(verified.headers['set-cookie']))).toEqual(['pwd', 'hwk']);
  });

  it('refuses the step-up without a signed-in session (401) and from another origin (403), changing nothing', async () => {
    await seedUser(t, { sub: 'target' });
    const b = browser();
    const anonymous = await b.call('POST', '/api/auth/step-up', undefined, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(UNAUTHORIZED);

    const { cookie } = await b.login('target@example.com');
    const forged = await b.call('POST', '/api/auth/step-up', cookie, {}, { origin: 'https://evil.example' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(forged.headers['set-cookie']).toBeUndefined();
    expect(await amrOf(b, cookie)).toEqual(['pwd']);
    const invalid = await b.call('POST', '/api/auth/step-up', cookie, { client_id: 'grafana' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    // Its own origin may.
    expect((await b.call('POST', '/api/auth/step-up', cookie, {}, { origin })).statusCode).toBe(200);
  });
});
