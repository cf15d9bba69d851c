import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock, totpCode } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { FORBIDDEN, NOT_FOUND, UNAUTHORIZED } from '../support/spec-shapes.js';

/**
 * auth.second_factor (docs/http-api.md, "Second factors"): enrolment at sign-in for a user the
 * policy covers who has no factor, the last factor kept, the admin's reset
 * for a lost device, and the admin user fields that report all of it.
 */
const origin = 'http://localhost:8080';
const step = 30_000;
const t0 = 63_400_000 * step;
const SECOND_FACTOR_REQUIRED = {
  code: 'SECOND_FACTOR_REQUIRED',
  message: 'This account must keep a second factor: register another one before removing the last.',
};

describe.each(databaseKinds)('the second-factor policy on %s', (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  const browser = () => browserAt(t, `10.3.0.${++addresses}`);
  const admin = async (sub: string) => seedUser(t, { sub, email: `${sub}@example.com`, role: 'admin' });

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
        auth: { ...base.auth, secondFactor: 'required_for_admins' },
      },
      { clock },
    );
    await seedUser(t, { sub: 'plain', email: 'plain@example.com' });
  });
  afterAll(() => t.destroy());

  it('signs in a user the policy does not cover with a password alone', async () => {
    const { body } = await browser().login('plain@example.com');
    expect(body.user).toMatchObject({ sub: 'plain', second_factor_required: false });
  });

  it('sends an admin without a factor through enrolment: only the enrolment routes, and the confirmed app completes the sign-in', async () => {
    await admin('enrol-totp');
    const b = browser();
    const { cookie, body } = await b.login('enrol-totp@example.com');
    expect(body).toEqual({ status: 'second_factor_required', factors: [], enrolment_required: true });
    for (const [method, url, payload] of [
      ['GET', '/api/auth/session', undefined],
      ['GET', '/api/admin/me', undefined],
      ['GET', '/api/user/passkeys', undefined],
      ['DELETE', '/api/user/totp', { code: '123456' }],
      ['POST', '/api/user/recovery-codes', { code: '123456' }],
      ['DELETE', '/api/admin/users/plain/second-factors', undefined],
    ] as const) {
      const response = await b.call(method, url, cookie, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    }
    // There is no app to take a code from yet.
    expect((await b.call('POST', '/api/auth/login/totp', cookie, { code: '123456' })).json()).toMatchObject({
      code: 'INVALID_CODE',
    });
    const { secret } = (await b.call('POST', '/api/user/totp', cookie)).json();
    const wrong = await b.call('POST', '/api/user/totp/confirm', cookie, {
      code: totpCode(secret, clock.now() + 9 * step),
    });
    expect(wrong.statusCode).toBe(401);
    expect((await b.call('GET', '/api/auth/session', cookie)).statusCode).toBe(401);
    clock.advance(1000);
    const confirmed = await b.call('POST', '/api/user/totp/confirm', cookie, { code: totpCode(secret, clock.now()) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().recovery_codes).toHaveLength(10);
    const signedIn = sessionCookieOf(confirmed.headers['set-cookie']);
    const session = (await b.call('GET', '/api/auth/session', signedIn)).json();
    expect(session.session).toMatchObject({ amr: ['pwd', 'otp'], auth_time: new Date(clock.now()).toISOString() });
    expect(session.user).toMatchObject({ totp_registered: true, second_factor_required: true });
    expect((await b.call('GET', '/api/admin/me', signedIn)).statusCode).toBe(200);
    // From now on the sign-in asks for the app.
    expect((await browser().login('enrol-totp@example.com')).body).toEqual({
      status: 'second_factor_required',
      factors: ['totp', 'recovery_code'],
      enrolment_required: false,
    });
  });

  it('lets the enrolment register a passkey instead, which completes the sign-in', async () => {
    await admin('enrol-passkey');
    const b = browser();
    const { cookie } = await b.login('enrol-passkey@example.com');
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    const authenticator = new SoftwareAuthenticator(origin);
    const created = await b.call('POST', '/api/user/passkeys', cookie, {
      response: authenticator.register(options as never),
      name: 'Security key',
    });
    expect(created.statusCode).toBe(201);
    const signedIn = sessionCookieOf(created.headers['set-cookie']);
    expect((await b.call('GET', '/api/auth/session', signedIn)).json().session.amr).toEqual(['pwd', 'hwk']);
    expect((await browser().login('enrol-passkey@example.com')).body).toMatchObject({
      factors: ['passkey'],
      enrolment_required: false,
    });
  });

  it('keeps the last factor of a user who must have one, and lets it go once another exists', async () => {
    await admin('keeper');
    const b = browser();
    const { secret, cookie } = await b.enrolTotp((await b.login('keeper@example.com')).cookie, clock.now());
    clock.advance(step);
    const refused = await b.call('DELETE', '/api/user/totp', cookie, { code: totpCode(secret, clock.now()) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(SECOND_FACTOR_REQUIRED);
    // The refused removal spent no code: the same one still signs in.
    const other = browser();
    const pending = await other.login('keeper@example.com');
    expect(
      (await other.call('POST', '/api/auth/login/totp', pending.cookie, { code: totpCode(secret, clock.now()) }))
        .statusCode,
    ).toBe(200);

    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    const passkey = (
      await b.call('POST', '/api/user/passkeys', cookie, {
        response: authenticator.register(options as never),
        name: 'Phone',
      })
    ).json().passkey;
    clock.advance(step);
    expect((await b.call('DELETE', '/api/user/totp', cookie, { code: totpCode(secret, clock.now()) })).statusCode).toBe(
      204,
    );
    const removed = (await b.call('GET', '/api/admin/events?subject=keeper&type=second_factor.removed', cookie)).json()
      .events;
    expect(removed).toMatchObject([
      { actor: 'keeper', detail: { factor: 'totp' }, client_address: expect.stringMatching(/^10\.3\.0\./) },
    ]);
    const last = await b.call('DELETE', `/api/user/passkeys/${passkey.id}`, cookie);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual(SECOND_FACTOR_REQUIRED);
    expect((await b.call('GET', '/api/user/passkeys', cookie)).json().passkeys).toHaveLength(1);
  });

  it("lets an admin remove a user's factors: app, recovery codes, passkeys and sessions go; the next sign-in enrols again", async () => {
    await admin('helpdesk');
    await admin('lost');
    const helper = browser();
    const helperCookie = await (async () => {
      const { cookie } = await helper.login('helpdesk@example.com');
      return (await helper.enrolTotp(cookie, clock.now())).cookie;
    })();
    const lost = browser();
    const { cookie: lostCookie } = await lost.enrolTotp((await lost.login('lost@example.com')).cookie, clock.now());
    const options = (await lost.call('POST', '/api/user/passkeys/options', lostCookie)).json();
    await lost.call('POST', '/api/user/passkeys', lostCookie, {
      response: new SoftwareAuthenticator(origin).register(options as never),
      name: 'Phone',
    });
    const before = (await helper.call('GET', '/api/admin/users/lost', helperCookie)).json().user;
    expect(before).toMatchObject({
      totp_registered: true,
      totp_recovery_codes_missing: false,
      second_factor_required: true,
      passkey_count: 1,
    });

    const reset = await helper.call('DELETE', '/api/admin/users/lost/second-factors', helperCookie);
    expect(reset.statusCode).toBe(204);
    const after = (await helper.call('GET', '/api/admin/users/lost', helperCookie)).json().user;
    expect(after).toMatchObject({
      totp_registered: false,
      totp_recovery_codes_missing: false,
      second_factor_required: true,
      passkey_count: 0,
    });
    expect(Number((await t.database.db('recovery_codes').where({ sub: 'lost' }).count({ n: '*' }).first())?.n)).toBe(0);
    expect((await lost.call('GET', '/api/auth/session', lostCookie)).statusCode).toBe(401);
    expect((await browser().login('lost@example.com')).body).toEqual({
      status: 'second_factor_required',
      factors: [],
      enrolment_required: true,
    });

    const events = async (type: string) =>
      (await helper.call('GET', `/api/admin/events?subject=lost&type=${type}`, helperCookie))
        .json()
        .events.map((e: Record<string, unknown>) => ({
          type: e.type,
          actor: e.actor,
          detail: e.detail,
        }));
    expect(await events('second_factor.added')).toEqual([
      { type: 'second_factor.added', actor: 'lost', detail: { factor: 'totp' } },
    ]);
    expect(await events('passkey.added')).toEqual([
      { type: 'passkey.added', actor: 'lost', detail: { passkey_id: expect.any(String), name: 'Phone' } },
    ]);
    expect(await events('second_factor.reset_by_admin')).toEqual([
      { type: 'second_factor.reset_by_admin', actor: 'helpdesk', detail: { totp: true, passkeys: 1 } },
    ]);

    const unknown = await helper.call('DELETE', '/api/admin/users/nobody/second-factors', helperCookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
    const user = browser();
    const plainCookie = (await user.login('plain@example.com')).cookie;
    const forbidden = await user.call('DELETE', '/api/admin/users/helpdesk/second-factors', plainCookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual(FORBIDDEN);
    expect((await helper.call('DELETE', '/api/admin/users/lost/second-factors', undefined)).json()).toEqual(
      UNAUTHORIZED,
    );
    expect((await helper.call('GET', '/api/admin/me', helperCookie)).json().user).toMatchObject({
      totp_registered: true,
    });
  });

  it('reports the admin user fields in the admin list, get and me, from the policy and the role', async () => {
    await admin('fields');
    const b = browser();
    const { cookie } = await b.enrolTotp((await b.login('fields@example.com')).cookie, clock.now());
    const me = (await b.call('GET', '/api/admin/me', cookie)).json().user;
    expect(me).toMatchObject({
      totp_registered: true,
      totp_recovery_codes_missing: false,
      second_factor_required: true,
      passkey_count: 0,
    });
    const listed = (await b.call('GET', '/api/admin/users?query=plain', cookie)).json().users;
    expect(listed).toEqual([
      expect.objectContaining({
        sub: 'plain',
        totp_registered: false,
        totp_recovery_codes_missing: false,
        second_factor_required: false,
        passkey_count: 0,
      }),
    ]);
    const own = (await b.call('GET', '/api/admin/users?query=fields', cookie)).json().users[0];
    expect(own).toMatchObject({ totp_registered: true, second_factor_required: true });
  });
});

describe.each(databaseKinds)('auth.second_factor: required on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, { auth: { ...base.auth, secondFactor: 'required' } });
    await seedUser(t, { sub: 'member', email: 'member@example.com' });
    await seedUser(t, { sub: 'boss', email: 'boss@example.com', role: 'admin' });
  });
  afterAll(() => t.destroy());

  it('covers every user, admin or not, who enrols at the first sign-in', async () => {
    const b = browserAt(t, '10.3.9.1');
    for (const email of ['member@example.com', 'boss@example.com']) {
      expect((await b.login(email)).body).toEqual({
        status: 'second_factor_required',
        factors: [],
        enrolment_required: true,
      });
    }
  });
});
