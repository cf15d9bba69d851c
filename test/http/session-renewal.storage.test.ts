import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock, totpCode } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { UNAUTHORIZED } from '../support/spec-shapes.js';

/**
 * Session fixation (docs/http-api.md "Session renewal"): every change of what
 * a session may do issues a new cookie value, and the value from before stops
 * working, so a cookie planted in a browser before the second factor (or a
 * remembered one) never becomes the signed-in session.
 */
const origin = 'http://localhost:8080';
const t0 = 1_900_000_000_000;
const step = 30_000;

function cookieNamed(setCookie: string | string[] | undefined, name: string): string | undefined {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return cookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
}

describe.each(databaseKinds)('session renewal on %s', (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  const browser = () => browserAt(t, `10.7.0.${String(++addresses)}`);

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      { server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } } },
      { clock },
    );
  });
  afterAll(() => t.destroy());

  /** The cookie a second step answered with differs from the pending one; the pending one is dead, the new one signed in. */
  async function expectRenewed(
    b: ReturnType<typeof browser>,
    pending: string,
    answer: { headers: { 'set-cookie'?: string | string[] } },
    sub: string,
  ) {
    const renewed = sessionCookieOf(answer.headers['set-cookie']);
    expect(renewed).not.toBe(pending);
    const old = await b.call('GET', '/api/auth/session', pending);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(UNAUTHORIZED);
    // Not even as a pending session: the second-factor routes refuse it too.
    expect((await b.call('POST', '/api/auth/login/totp', pending, { code: '123456' })).json()).toEqual(UNAUTHORIZED);
    const current = await b.call('GET', '/api/auth/session', renewed);
    expect(current.statusCode).toBe(200);
    expect(current.json().user.sub).toBe(sub);
    return renewed;
  }

  async function withTotp(sub: string) {
    await seedUser(t, { sub, email: `${sub}@example.com` });
    const setup = browser();
    const enrolled = await setup.enrolTotp((await setup.login(`${sub}@example.com`)).cookie, clock.now());
    clock.advance(step);
    return enrolled;
  }

  it('renews the session at an authenticator code', async () => {
    const { secret } = await withTotp('bycode');
    const b = browser();
    const { cookie } = await b.login('bycode@example.com');
    const answer = await b.call('POST', '/api/auth/login/totp', cookie, { code: totpCode(secret, clock.now()) });
    expect(answer.statusCode).toBe(200);
    await expectRenewed(b, cookie, answer, 'bycode');
  });

  it('renews the session at a recovery code', async () => {
    const { recoveryCodes } = await withTotp('byrecovery');
    const b = browser();
    const { cookie } = await b.login('byrecovery@example.com');
    const answer = await b.call('POST', '/api/auth/login/recovery-code', cookie, { code: recoveryCodes[0] });
    expect(answer.statusCode).toBe(200);
    await expectRenewed(b, cookie, answer, 'byrecovery');
  });

  it('renews the session at a passkey that completes a password sign-in', async () => {
    await seedUser(t, { sub: 'bykey', email: 'bykey@example.com' });
    const setup = browser();
    const full = (await setup.login('bykey@example.com')).cookie;
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await setup.call('POST', '/api/user/passkeys/options', full)).json();
    const created = await setup.call('POST', '/api/user/passkeys', full, {
      response: authenticator.register(options as never),
      name: 'Laptop',
    });
    expect(created.statusCode).toBe(201);

    const b = browser();
    const { cookie } = await b.login('bykey@example.com');
    const request = (await b.call('POST', '/api/auth/passkey/options', cookie, {})).json();
    const answer = await b.call('POST', '/api/auth/passkey/verify', cookie, {
      response: authenticator.assert(request as never),
    });
    expect(answer.statusCode).toBe(200);
    const renewed = await expectRenewed(b, cookie, answer, 'bykey');
    expect((await b.call('GET', '/api/auth/session', renewed)).json().session.amr).toEqual(['pwd', 'hwk']);
  });

  it('renews the session at the enrolment that completes a sign-in', async () => {
    await seedUser(t, { sub: 'enrols', email: 'enrols@example.com', secondFactorRequired: true });
    const b = browser();
    const { cookie, body } = await b.login('enrols@example.com');
    expect(body).toMatchObject({ status: 'second_factor_required', enrolment_required: true });
    const { secret } = (await b.call('POST', '/api/user/totp', cookie)).json() as { secret: string };
    const answer = await b.call('POST', '/api/user/totp/confirm', cookie, { code: totpCode(secret, clock.now()) });
    expect(answer.statusCode).toBe(200);
    await expectRenewed(b, cookie, answer, 'enrols');
  });

  it('renews the session of a remembered account when it is selected', async () => {
    await seedUser(t, { sub: 'first', email: 'first@example.com' });
    await seedUser(t, { sub: 'second', email: 'second@example.com' });
    const b = browser();
    const first = (await b.login('first@example.com')).cookie;
    const remembered = cookieNamed(
      (await b.call('GET', '/api/auth/accounts', first)).headers['set-cookie'],
      'accounts',
    );
    if (remembered === undefined) throw new Error('no accounts cookie was set');
    const second = (await b.login('second@example.com')).cookie;
    const selected = await b.call(
      'POST',
      '/api/auth/accounts/select',
      `${second}; ${remembered}`,
      { sub: 'first' },
      {
        origin,
      },
    );
    expect(selected.statusCode).toBe(200);
    const renewed = sessionCookieOf(selected.headers['set-cookie']);
    expect(renewed).not.toBe(first);
    expect((await b.call('GET', '/api/auth/session', first)).statusCode).toBe(401);
    expect((await b.call('GET', '/api/auth/session', renewed)).json().user.sub).toBe('first');
    // The remembered list follows the new value: both accounts are still there.
    const rememberedNow = cookieNamed(selected.headers['set-cookie'], 'accounts');
    if (rememberedNow === undefined) throw new Error('the selection did not rewrite the accounts cookie');
    const listed = await b.call('GET', '/api/auth/accounts', `${renewed}; ${rememberedNow}`);
    expect(listed.json().accounts).toEqual([
      { sub: 'first', email: 'first@example.com', name: null, current: true },
      { sub: 'second', email: 'second@example.com', name: null, current: false },
    ]);
  });
});
