import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock, totpCode } from '../support/second-factor-client.js';
import { UNAUTHORIZED } from '../support/spec-shapes.js';

/** docs/http-api.md, "Second factors": the authenticator app, its recovery codes, and signing in with them, through the real server. */
const INVALID_CODE = { code: 'INVALID_CODE', message: 'The code is incorrect, expired or already used.' };
const step = 30_000;
/** A step boundary, so that "the same step" and "the next step" are exact. */
const t0 = 63_333_334 * step;

describe.each(databaseKinds)('authenticator apps on %s', (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  /** A browser at an address of its own (the per-address rate limit stays per test). */
  const browser = () => browserAt(t, `10.1.0.${++addresses}`);
  const user = async (sub: string) => seedUser(t, { sub, email: `${sub}@example.com` });

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
        auth: { ...base.auth, totpIssuer: 'Acme Sign-in' },
      },
      { clock },
    );
  });
  afterAll(() => t.destroy());

  it('enrols: a base32 secret and its otpauth:// URL, nothing registered until a first code confirms it', async () => {
    await user('enrol');
    const b = browser();
    const { cookie } = await b.login('enrol@example.com');
    const begun = await b.call('POST', '/api/user/totp', cookie);
    expect(begun.statusCode).toBe(200);
    expect(begun.headers['cache-control']).toBe('no-store');
    const { secret, otpauth_url: url } = begun.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(url);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host + decodeURIComponent(parsed.pathname)).toBe('totp/Acme Sign-in:enrol@example.com');
    expect(Object.fromEntries(parsed.searchParams)).toMatchObject({
      secret,
      issuer: 'Acme Sign-in',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect((await b.call('GET', '/api/auth/session', cookie)).json().user.totp_registered).toBe(false);

    // Starting again replaces the pending secret: a code of the first one no longer confirms.
    const again = (await b.call('POST', '/api/user/totp', cookie)).json();
    expect(again.secret).not.toBe(secret);
    const stale = await b.call('POST', '/api/user/totp/confirm', cookie, { code: totpCode(secret, clock.now()) });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual(INVALID_CODE);

    const confirmed = await b.call('POST', '/api/user/totp/confirm', cookie, {
      code: totpCode(again.secret, clock.now()),
    });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const me = (await b.call('GET', '/api/auth/session', cookie)).json().user;
    expect(me).toMatchObject({
      totp_registered: true,
      totp_recovery_codes_missing: false,
      second_factor_required: false,
    });
  });

  it('keeps the secret sealed and the recovery codes hashed at rest', async () => {
    await user('atrest');
    const b = browser();
    const { cookie } = await b.login('atrest@example.com');
    const { secret, recoveryCodes } = await b.enrolTotp(cookie, clock.now());
    const row = await t.database.db('totp_credentials').where({ sub: 'atrest' }).first();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(secret);
    const hashes = (await t.database.db('recovery_codes').where({ sub: 'atrest' }).select('code_hash')).map(
      (r) => r.code_hash as string,
    );
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes) {
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(code.replace('-', ''));
    }
  });

  it('refuses a second app, a confirmation without enrolment, and codes that are not 6 digits', async () => {
    await user('twice');
    const b = browser();
    const { cookie } = await b.login('twice@example.com');
    const early = await b.call('POST', '/api/user/totp/confirm', cookie, { code: '123456' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'TOTP_NOT_PENDING',
      message: expect.stringContaining('POST /api/user/totp'),
    });
    await b.enrolTotp(cookie, clock.now());
    for (const [method, url] of [
      ['POST', '/api/user/totp'],
      ['POST', '/api/user/totp/confirm'],
    ] as const) {
      const response = await b.call(method, url, cookie, url.endsWith('confirm') ? { code: '123456' } : undefined);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'TOTP_ALREADY_REGISTERED' });
    }
    for (const code of ['12345', '1234567', 'abcdef', '12 345', '', 123456]) {
      const response = await b.call('POST', '/api/user/totp/confirm', cookie, { code });
      expect(response.statusCode, String(code)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect((await b.call('POST', '/api/user/totp/confirm', cookie, {})).statusCode).toBe(400);
    expect((await b.call('POST', '/api/user/totp', undefined)).json()).toEqual(UNAUTHORIZED);
  });

  it('signs in with a password, then the code: a pending session that only the second-factor routes accept', async () => {
    await user('signin');
    const setup = browser();
    const { secret } = await setup.enrolTotp((await setup.login('signin@example.com')).cookie, clock.now());
    clock.advance(step);

    const b = browser();
    const { cookie, body } = await b.login('signin@example.com');
    expect(body).toEqual({
      status: 'second_factor_required',
      factors: ['totp', 'recovery_code'],
      enrolment_required: false,
    });
    // A pending session is no session for anything else, and keeps its cookie.
    for (const [method, url] of [
      ['GET', '/api/auth/session'],
      ['GET', '/api/user/passkeys'],
      ['POST', '/api/user/recovery-codes'],
      ['GET', '/api/admin/me'],
    ] as const) {
      const response = await b.call(method, url, cookie, method === 'POST' ? { code: '123456' } : undefined);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
      expect(response.headers['set-cookie'], url).toBeUndefined();
    }
    // A user with a factor cannot enrol another from the pending session: that would skip it.
    expect((await b.call('POST', '/api/user/totp', cookie)).json()).toEqual(UNAUTHORIZED);

    const wrong = await b.call('POST', '/api/auth/login/totp', cookie, {
      code: totpCode(secret, clock.now() + 10 * step),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CODE);
    clock.advance(5000);
    const right = await b.call('POST', '/api/auth/login/totp', cookie, { code: totpCode(secret, clock.now()) });
    expect(right.statusCode).toBe(200);
    expect(right.json().user).toMatchObject({ sub: 'signin', totp_registered: true });
    const signedIn = sessionCookieOf(right.headers['set-cookie']);
    const session = (await b.call('GET', '/api/auth/session', signedIn)).json().session;
    expect(session.amr).toEqual(['pwd', 'otp']);
    expect(session.auth_time).toBe(new Date(clock.now()).toISOString());

    // The audit trail of this sign-in's second step: the wrong code, then the success with its methods.
    const events = await t.database
      .db('events')
      .where({ subject: 'signin' })
      .whereIn('type', ['sign_in.failed', 'sign_in.succeeded'])
      .orderBy('id')
      .select('type', 'detail');
    expect(events.map((e) => [e.type, JSON.parse(e.detail)])).toEqual([
      ['sign_in.succeeded', { amr: ['pwd'] }],
      ['sign_in.failed', { method: 'totp' }],
      ['sign_in.succeeded', { amr: ['pwd', 'otp'] }],
    ]);

    const done = await b.call('POST', '/api/auth/login/totp', signedIn, { code: totpCode(secret, clock.now()) });
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ code: 'SIGN_IN_NOT_PENDING' });
    expect((await b.call('POST', '/api/auth/login/totp', undefined, { code: '123456' })).json()).toEqual(UNAUTHORIZED);
  });

  it('accepts a code one step early or late, never twice, never an older step after a newer one, never two steps off', async () => {
    await user('window');
    const setup = browser();
    const { secret } = await setup.enrolTotp((await setup.login('window@example.com')).cookie, clock.now());
    const attempt = async (codeTime: number) => {
      // A browser per attempt: the failures here are the point, not the address's rate limit.
      const b = browser();
      const { cookie } = await b.login('window@example.com');
      return (await b.call('POST', '/api/auth/login/totp', cookie, { code: totpCode(secret, codeTime) })).statusCode;
    };
    // The step of the confirmation is spent.
    expect(await attempt(clock.now())).toBe(401);
    clock.advance(3 * step);
    expect(await attempt(clock.now() - 2 * step)).toBe(401);
    expect(await attempt(clock.now() - step)).toBe(200);
    expect(await attempt(clock.now() - step)).toBe(401);
    expect(await attempt(clock.now() + step)).toBe(200);
    // The current step is older than the one just used.
    expect(await attempt(clock.now())).toBe(401);
    expect(await attempt(clock.now() + 2 * step)).toBe(401);
    clock.advance(2 * step);
    expect(await attempt(clock.now())).toBe(200);
  });

  it('ends a pending sign-in after 10 minutes, or at logout', async () => {
    await user('slow');
    const setup = browser();
    const { secret } = await setup.enrolTotp((await setup.login('slow@example.com')).cookie, clock.now());
    const b = browser();
    const late = await b.login('slow@example.com');
    clock.advance(10 * 60_000);
    expect(
      (await b.call('POST', '/api/auth/login/totp', late.cookie, { code: totpCode(secret, clock.now()) })).json(),
    ).toEqual(UNAUTHORIZED);
    const left = await b.login('slow@example.com');
    expect((await b.call('POST', '/api/auth/logout', left.cookie)).statusCode).toBe(204);
    expect(
      (await b.call('POST', '/api/auth/login/totp', left.cookie, { code: totpCode(secret, clock.now()) })).json(),
    ).toEqual(UNAUTHORIZED);
    // A completed one lives the full session lifetime from its second factor.
    const pending = await b.login('slow@example.com');
    const done = await b.call('POST', '/api/auth/login/totp', pending.cookie, { code: totpCode(secret, clock.now()) });
    expect(done.statusCode).toBe(200);
    clock.advance(30 * 60_000);
    expect((await b.call('GET', '/api/auth/session', sessionCookieOf(done.headers['set-cookie']))).statusCode).toBe(
      200,
    );
  });

  it('lets one of two sign-ins that send the same code at once succeed', async () => {
    await user('race');
    const setup = browser();
    const { secret } = await setup.enrolTotp((await setup.login('race@example.com')).cookie, clock.now());
    clock.advance(step);
    const [a, b] = [browser(), browser()];
    const [first, second] = [await a.login('race@example.com'), await b.login('race@example.com')];
    const code = totpCode(secret, clock.now());
    const results = await Promise.all([
      a.call('POST', '/api/auth/login/totp', first.cookie, { code }),
      b.call('POST', '/api/auth/login/totp', second.cookie, { code }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('signs in with a recovery code once each, in any case and spacing, and counts what is left', async () => {
    await user('recover');
    const setup = browser();
    const { recoveryCodes } = await setup.enrolTotp((await setup.login('recover@example.com')).cookie, clock.now());
    const b = browser();
    const { cookie } = await b.login('recover@example.com');
    const typed = ` ${recoveryCodes[0].toUpperCase().replace('-', ' ')} `;
    const used = await b.call('POST', '/api/auth/login/recovery-code', cookie, { code: typed });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ user: { sub: 'recover' }, recovery_codes_left: 9 });
    const signedIn = sessionCookieOf(used.headers['set-cookie']);
    expect((await b.call('GET', '/api/auth/session', signedIn)).json().session.amr).toEqual(['pwd', 'otp']);
    // The profile says the same (docs/http-api.md, "Second factors"); a user without an app has none.
    expect((await b.call('GET', '/api/user', signedIn)).json().user).toMatchObject({
      totp_registered: true,
      recovery_codes_left: 9,
    });
    await user('noapp');
    const plain = browser();
    expect(
      (await plain.call('GET', '/api/user', (await plain.login('noapp@example.com')).cookie)).json().user
        .recovery_codes_left,
    ).toBe(0);

    const again = await b.login('recover@example.com');
    for (const code of [recoveryCodes[0], 'not-a-code', 'zzzzz-zzzzz', '0000000000']) {
      const refused = await b.call('POST', '/api/auth/login/recovery-code', again.cookie, { code });
      expect(refused.statusCode, code).toBe(401);
      expect(refused.json()).toEqual(INVALID_CODE);
    }
    expect((await b.call('POST', '/api/auth/login/recovery-code', again.cookie, { code: '' })).statusCode).toBe(400);
  });

  it('reports the recovery codes missing once all are spent, and stops offering them', async () => {
    await user('spent');
    const setup = browser();
    const { recoveryCodes } = await setup.enrolTotp((await setup.login('spent@example.com')).cookie, clock.now());
    // One browser per code: the per-address counter forgives successes, so this is no brute force.
    let last = 0;
    let cookie = '';
    for (const code of recoveryCodes) {
      const b = browser();
      ({ cookie } = await b.login('spent@example.com'));
      const used = await b.call('POST', '/api/auth/login/recovery-code', cookie, { code });
      last = used.json().recovery_codes_left;
      cookie = sessionCookieOf(used.headers['set-cookie']);
    }
    expect(last).toBe(0);
    const me = (await browser().call('GET', '/api/auth/session', cookie)).json().user;
    expect(me).toMatchObject({ totp_registered: true, totp_recovery_codes_missing: true });
    expect((await browser().login('spent@example.com')).body.factors).toEqual(['totp']);
  });

  it('counts wrong codes against the login rate limit of the account and the address', async () => {
    await user('guess');
    const setup = browser();
    const { secret } = await setup.enrolTotp((await setup.login('guess@example.com')).cookie, clock.now());
    clock.advance(step);
    const b = browser();
    const { cookie } = await b.login('guess@example.com');
    for (let i = 0; i < 5; i++) {
      const wrong = await b.call('POST', '/api/auth/login/totp', cookie, {
        code: totpCode(secret, clock.now() + (10 + i) * step),
      });
      expect(wrong.statusCode).toBe(401);
    }
    const blocked = await b.call('POST', '/api/auth/login/totp', cookie, { code: totpCode(secret, clock.now()) });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await b.call('POST', '/api/auth/login/recovery-code', cookie, { code: 'abcde-fghij' })).statusCode).toBe(
      429,
    );
    // The account's counter: the right password is refused now too, from anywhere.
    const elsewhere = await browser().call('POST', '/api/auth/login', undefined, {
      email: 'guess@example.com',
      password: 'correct horse battery staple',
    });
    expect(elsewhere.statusCode).toBe(429);
    // After the window, the right code signs in.
    clock.advance(900_000);
    const later = browser();
    const fresh = await later.login('guess@example.com');
    expect(
      (await later.call('POST', '/api/auth/login/totp', fresh.cookie, { code: totpCode(secret, clock.now()) }))
        .statusCode,
    ).toBe(200);
  });

  it('does not let a new password sign-in buy more guesses at the code', async () => {
    await user('reguess');
    const setup = browser();
    await setup.enrolTotp((await setup.login('reguess@example.com')).cookie, clock.now());
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      const b = browser();
      const { cookie } = await b.login('reguess@example.com');
      for (let i = 0; i < 2; i++)
        refused +=
          (await b.call('POST', '/api/auth/login/totp', cookie, { code: '000000' })).statusCode === 429 ? 1 : 0;
    }
    // 6 guesses from 3 sign-ins: the 6th meets the account's second-factor counter.
    expect(refused).toBe(1);
    clock.advance(900_000);
  });

  it('replaces the recovery codes after a code: the old ones stop working', async () => {
    await user('regen');
    const b = browser();
    const { cookie } = await b.login('regen@example.com');
    const first = await b.enrolTotp(cookie, clock.now());
    clock.advance(step);
    const wrong = await b.call('POST', '/api/user/recovery-codes', cookie, {
      code: totpCode(first.secret, clock.now() + 5 * step),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CODE);
    const renewed = await b.call('POST', '/api/user/recovery-codes', cookie, {
      code: totpCode(first.secret, clock.now()),
    });
    expect(renewed.statusCode).toBe(200);
    const codes = renewed.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(codes.filter((c) => first.recoveryCodes.includes(c))).toEqual([]);
    const other = browser();
    const pending = await other.login('regen@example.com');
    expect(
      (await other.call('POST', '/api/auth/login/recovery-code', pending.cookie, { code: first.recoveryCodes[0] }))
        .statusCode,
    ).toBe(401);
    expect(
      (await other.call('POST', '/api/auth/login/recovery-code', pending.cookie, { code: codes[0] })).statusCode,
    ).toBe(200);
  });

  it('removes the app after a code, with its recovery codes; the next sign-in is a password alone', async () => {
    await user('remove');
    const b = browser();
    const { cookie } = await b.login('remove@example.com');
    const nothing = await b.call('DELETE', '/api/user/totp', cookie, { code: '123456' });
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json()).toEqual({ code: 'TOTP_NOT_REGISTERED', message: 'No authenticator app is registered.' });
    expect((await b.call('POST', '/api/user/recovery-codes', cookie, { code: '123456' })).json()).toMatchObject({
      code: 'TOTP_NOT_REGISTERED',
    });
    const { secret } = await b.enrolTotp(cookie, clock.now());
    clock.advance(step);
    expect((await b.call('DELETE', '/api/user/totp', cookie, {})).statusCode).toBe(400);
    const wrong = await b.call('DELETE', '/api/user/totp', cookie, { code: totpCode(secret, clock.now() - 3 * step) });
    expect(wrong.statusCode).toBe(401);
    expect((await b.call('GET', '/api/auth/session', cookie)).json().user.totp_registered).toBe(true);
    const removed = await b.call('DELETE', '/api/user/totp', cookie, { code: totpCode(secret, clock.now()) });
    expect(removed.statusCode).toBe(204);
    expect((await b.call('GET', '/api/auth/session', cookie)).json().user).toMatchObject({
      totp_registered: false,
      totp_recovery_codes_missing: false,
    });
    expect(Number((await t.database.db('recovery_codes').where({ sub: 'remove' }).count({ n: '*' }).first())?.n)).toBe(
      0,
    );
    expect((await browser().login('remove@example.com')).body.user).toMatchObject({ sub: 'remove' });
  });
});
