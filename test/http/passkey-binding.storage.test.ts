import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';

/**
 * docs/http-api.md "Signing in with one": who a passkey assertion may sign
 * in. The user handle (WebAuthn L2 §7.2 step 6) must name the credential's
 * user when present, and must be present for a passwordless sign-in (a
 * discoverable credential: the handle is how the authenticator says whose
 * key it is); a second factor of a known user may do without. A challenge
 * answers only in the browser that asked for it (its passkey_challenge
 * cookie), so an assertion that leaks out of the browser signs nobody in.
 */
const origin = 'http://localhost:8080';
const t0 = 1_900_000_000_000;

type Assertion = ReturnType<SoftwareAuthenticator['assert']>;

function cookiesOf(setCookie: string | string[] | undefined): string[] {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.map((c) => c.split(';')[0]).filter((c) => !c.endsWith('='));
}

describe.each(databaseKinds)('passkey assertions and their browser on %s', (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  const browser = () => browserAt(t, `10.8.0.${String(++addresses)}`);
  /** A browser whose cookies the test hands over itself, so that it can leave out or forge one. */
  const bare = () => {
    const address = `10.8.1.${String(++addresses)}`;
    return {
      call: (method: string, url: string, cookie?: string, payload?: unknown) =>
        inject(t, method, url, cookie, payload, { 'x-forwarded-for': address }),
    };
  };

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      { server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } } },
      { clock },
    );
  });
  afterAll(() => t.destroy());

  async function withPasskey(sub: string) {
    await seedUser(t, { sub, email: `${sub}@example.com` });
    const b = browser();
    const { cookie } = await b.login(`${sub}@example.com`);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    const created = await b.call('POST', '/api/user/passkeys', cookie, {
      response: authenticator.register(options as never),
      name: 'Laptop',
    });
    expect(created.statusCode).toBe(201);
    return authenticator;
  }

  /** POST /api/auth/passkey/options from a browser holding `cookies`; the options and every cookie the browser holds after. */
  async function ask(b: ReturnType<typeof bare>, cookies: string[] = []) {
    const answer = await b.call('POST', '/api/auth/passkey/options', cookies.join('; ') || undefined, {});
    expect(answer.statusCode).toBe(200);
    const set = cookiesOf(answer.headers['set-cookie']);
    const names = new Set(set.map((c) => c.split('=')[0]));
    return { options: answer.json(), cookies: [...cookies.filter((c) => !names.has(c.split('=')[0])), ...set] };
  }
  const verify = (b: ReturnType<typeof bare>, cookies: string[], response: Assertion) =>
    b.call('POST', '/api/auth/passkey/verify', cookies.join('; ') || undefined, { response });
  const withoutUserHandle = (assertion: Assertion) => {
    const { userHandle: _dropped, ...rest } = assertion.response;
    return { ...assertion, response: rest } as unknown as Assertion;
  };

  it('signs in passwordless only with a user handle: absent, it is 401 INVALID_PASSKEY and no session', async () => {
    const authenticator = await withPasskey('handles');
    const b = bare();
    const asked = await ask(b);
    const refused = await verify(b, asked.cookies, withoutUserHandle(authenticator.assert(asked.options as never)));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'INVALID_PASSKEY',
      message: 'The passkey could not be verified: a sign-in without a password needs the user handle.',
    });
    expect(refused.headers['set-cookie']?.toString() ?? '').not.toMatch(/session=[^;]/);
    const again = await ask(b, asked.cookies);
    const signedIn = await verify(b, again.cookies, authenticator.assert(again.options as never));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.sub).toBe('handles');
  });

  it('completes a second factor without a user handle, and refuses one that names someone else', async () => {
    const authenticator = await withPasskey('second');
    const pending = (await browser().login('second@example.com')).cookie;
    const b = bare();
    const other = await ask(b, [pending]);
    const wrong = authenticator.assert(other.options as never);
    const refused = await verify(b, other.cookies, {
      ...wrong,
      response: { ...wrong.response, userHandle: Buffer.from('someone else').toString('base64url') },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(
      'The passkey could not be verified: the user handle does not match the passkey.',
    );
    const asked = await ask(b, [pending]);
    const completed = await verify(b, asked.cookies, withoutUserHandle(authenticator.assert(asked.options as never)));
    expect(completed.statusCode).toBe(200);
    expect(completed.json().user.sub).toBe('second');
    expect(sessionCookieOf(completed.headers['set-cookie'])).not.toBe(pending);
  });

  it('answers a passwordless challenge only in the browser that asked for it', async () => {
    const authenticator = await withPasskey('bound');
    const victim = bare();
    const asked = await ask(victim);
    expect(asked.cookies.some((c) => c.startsWith('passkey_challenge='))).toBe(true);
    const assertion = authenticator.assert(asked.options as never);
    // The assertion leaks: another browser without the cookie, or with a challenge of its own, gets nothing.
    const attacker = bare();
    const own = await ask(attacker);
    for (const cookies of [[], own.cookies]) {
      const stolen = await verify(attacker, cookies, assertion);
      expect(stolen.statusCode).toBe(401);
      expect(stolen.json()).toEqual({
        code: 'INVALID_PASSKEY',
        message: 'The passkey could not be verified: this browser did not ask for its challenge.',
      });
      expect(cookiesOf(stolen.headers['set-cookie']).some((c) => c.startsWith('session='))).toBe(false);
    }
    // A forged cookie is no better than none.
    const forged = await verify(attacker, ['passkey_challenge=bm90LWEtc2VhbGVkLXZhbHVl'], assertion);
    expect(forged.statusCode).toBe(401);
    // The refusals spent nothing: the browser that asked still signs in with it.
    const signedIn = await verify(victim, asked.cookies, assertion);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.sub).toBe('bound');
  });

  it('keeps the challenges of a few open requests in one browser', async () => {
    const authenticator = await withPasskey('tabs');
    const b = bare();
    const first = await ask(b);
    const second = await ask(b, first.cookies);
    // The first tab's request still answers after the second asked.
    const signedIn = await verify(b, second.cookies, authenticator.assert(first.options as never));
    expect(signedIn.statusCode).toBe(200);
  });
});
