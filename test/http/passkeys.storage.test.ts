import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';
import { browserAt, testClock } from '../support/second-factor-client.js';
import { SoftwareAuthenticator, type CeremonyOverrides } from '../support/software-authenticator.js';
import { UNAUTHORIZED } from '../support/spec-shapes.js';

/**
 * Passkeys (docs/http-api.md, "Second factors") through the real server and a software
 * authenticator (test/support/software-authenticator.ts) that builds real
 * attestations and assertions: registration, list, rename, removal,
 * passwordless sign-in and the second factor of a pending one, and every
 * refusal of a response that does not hold.
 */
const origin = 'http://localhost:8080';
const t0 = 1_900_000_000_000;

describe.each(databaseKinds)('passkeys on %s', (kind) => {
  let t: TestApp;
  const clock = testClock(t0);
  let addresses = 0;
  const browser = () => browserAt(t, `10.2.0.${++addresses}`);

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(
      kind,
      { server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } } },
      { clock },
    );
  });
  afterAll(() => t.destroy());

  /** A signed-in user with a passkey on a fresh authenticator. */
  async function withPasskey(sub: string, name = 'Laptop') {
    await seedUser(t, { sub, email: `${sub}@example.com` });
    const b = browser();
    const { cookie } = await b.login(`${sub}@example.com`);
    const authenticator = new SoftwareAuthenticator(origin);
    const created = await register(b, cookie, authenticator, name);
    expect(created.statusCode, created.payload).toBe(201);
    return { b, cookie, authenticator, passkey: created.json().passkey as { id: string; name: string } };
  }

  async function register(
    b: ReturnType<typeof browser>,
    cookie: string,
    authenticator: SoftwareAuthenticator,
    name: string,
    overrides: CeremonyOverrides = {},
  ) {
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    return b.call('POST', '/api/user/passkeys', cookie, {
      response: authenticator.register(options as never, overrides),
      name,
    });
  }

  async function passwordless(
    b: ReturnType<typeof browser>,
    authenticator: SoftwareAuthenticator,
    overrides: CeremonyOverrides = {},
    cookie?: string,
  ) {
    const options = (await b.call('POST', '/api/auth/passkey/options', cookie, {})).json();
    return b.call('POST', '/api/auth/passkey/verify', cookie, {
      response: authenticator.assert(options as never, overrides),
    });
  }

  const passkeyCount = async (sub: string) =>
    Number((await t.database.db('passkeys').where({ sub }).count({ n: '*' }).first())?.n);

  it('registers a discoverable passkey that verifies its user, lists it, and excludes it from the next registration', async () => {
    await seedUser(t, { sub: 'reg', email: 'reg@example.com' });
    const b = browser();
    const { cookie } = await b.login('reg@example.com');
    const options = await b.call('POST', '/api/user/passkeys/options', cookie);
    expect(options.statusCode).toBe(200);
    expect(options.headers['cache-control']).toBe('no-store');
    expect(options.json()).toMatchObject({
      rp: { id: 'localhost', name: 'idp' },
      user: { name: 'reg@example.com' },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: 300_000,
    });
    const authenticator = new SoftwareAuthenticator(origin);
    const created = await b.call('POST', '/api/user/passkeys', cookie, {
      response: authenticator.register(options.json() as never),
      name: '  Laptop  ',
    });
    expect(created.statusCode).toBe(201);
    const passkey = created.json().passkey;
    expect(passkey).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Laptop',
      created_at: new Date(t0).toISOString(),
      last_used_at: null,
      device_type: 'multi_device',
      backed_up: true,
    });
    expect((await b.call('GET', '/api/user/passkeys', cookie)).json()).toEqual({ passkeys: [passkey] });
    expect((await b.call('GET', '/api/auth/session', cookie)).json().user.passkey_count).toBe(1);
    const next = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    expect(next.excludeCredentials).toEqual([
      { id: authenticator.credentials[0].id.toString('base64url'), type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('refuses a registration that does not hold, and stores nothing', async () => {
    await seedUser(t, { sub: 'badreg', email: 'badreg@example.com' });
    const b = browser();
    const { cookie } = await b.login('badreg@example.com');
    const other = browser();
    const otherCookie = (await other.login('badreg@example.com')).cookie;
    const authenticator = new SoftwareAuthenticator(origin);
    const refusals: [string, () => Promise<{ statusCode: number; json(): Record<string, unknown> }>][] = [
      ['another origin', () => register(b, cookie, authenticator, 'x', { origin: 'https://evil.example' })],
      ['another RP ID', () => register(b, cookie, authenticator, 'x', { rpId: 'evil.example' })],
      [
        'another challenge',
        () => register(b, cookie, authenticator, 'x', { challenge: 'bm90LWEtY2hhbGxlbmdlLW9mLW91cnM' }),
      ],
      ['an assertion type', () => register(b, cookie, authenticator, 'x', { type: 'webauthn.get' })],
      ['no user verification', () => register(b, cookie, authenticator, 'x', { userVerified: false })],
      [
        'a challenge of another session',
        async () => {
          const options = (await other.call('POST', '/api/user/passkeys/options', otherCookie)).json();
          return b.call('POST', '/api/user/passkeys', cookie, {
            response: authenticator.register(options as never),
            name: 'x',
          });
        },
      ],
      [
        'an expired challenge',
        async () => {
          const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
          clock.advance(5 * 60_000);
          return b.call('POST', '/api/user/passkeys', cookie, {
            response: authenticator.register(options as never),
            name: 'x',
          });
        },
      ],
      [
        'malformed client data',
        async () => {
          const response = authenticator.register(
            (await b.call('POST', '/api/user/passkeys/options', cookie)).json() as never,
          );
          return b.call('POST', '/api/user/passkeys', cookie, {
            response: { ...response, response: { ...response.response, clientDataJSON: 'not-json' } },
            name: 'x',
          });
        },
      ],
      [
        'a malformed attestation object',
        async () => {
          const response = authenticator.register(
            (await b.call('POST', '/api/user/passkeys/options', cookie)).json() as never,
          );
          return b.call('POST', '/api/user/passkeys', cookie, {
            response: { ...response, response: { ...response.response, attestationObject: 'AAAA' } },
            name: 'x',
          });
        },
      ],
    ];
    for (const [what, attempt] of refusals) {
      const response = await attempt();
      expect(response.statusCode, what).toBe(400);
      expect(response.json(), what).toMatchObject({
        code: 'INVALID_PASSKEY',
        message: expect.stringMatching(/^The passkey could not be verified: .+\.$/),
      });
    }
    // Replayed: the same attestation a second time meets a spent challenge.
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    const response = authenticator.register(options as never);
    expect((await b.call('POST', '/api/user/passkeys', cookie, { response, name: 'first' })).statusCode).toBe(201);
    const replay = await b.call('POST', '/api/user/passkeys', cookie, { response, name: 'again' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toContain('no open challenge');
    expect(await passkeyCount('badreg')).toBe(1);
    // The same credential registered again from a fresh challenge: refused, still one.
    const same = await register(b, cookie, authenticator, 'same', { credential: authenticator.credentials.at(-1) });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toEqual({ code: 'PASSKEY_ALREADY_REGISTERED', message: 'This passkey is already registered.' });
    for (const body of [
      { name: 'x' },
      { response: { id: 'a' }, name: 'x' },
      { response: response, name: '' },
      { response, name: 'y'.repeat(101) },
    ]) {
      const invalid = await b.call('POST', '/api/user/passkeys', cookie, body);
      expect(invalid.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(invalid.json().code).toBe('VALIDATION_ERROR');
    }
    expect(await passkeyCount('badreg')).toBe(1);
    expect((await b.call('POST', '/api/user/passkeys/options', undefined)).json()).toEqual(UNAUTHORIZED);
  });

  it("renames and removes only the caller's own passkeys", async () => {
    const alice = await withPasskey('owner-a');
    const bob = await withPasskey('owner-b');
    const renamed = await alice.b.call('PATCH', `/api/user/passkeys/${alice.passkey.id}`, alice.cookie, {
      name: 'Phone',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().passkey).toMatchObject({ id: alice.passkey.id, name: 'Phone' });
    const notYours = { code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found.' };
    for (const [method, body] of [
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      for (const id of [bob.passkey.id, '00000000-0000-0000-0000-000000000000']) {
        const response = await alice.b.call(method, `/api/user/passkeys/${id}`, alice.cookie, body);
        expect(response.statusCode, `${method} ${id}`).toBe(404);
        expect(response.json()).toEqual(notYours);
      }
    }
    expect((await bob.b.call('GET', '/api/user/passkeys', bob.cookie)).json().passkeys).toMatchObject([
      { id: bob.passkey.id, name: 'Laptop' },
    ]);
    expect(
      (await alice.b.call('PATCH', `/api/user/passkeys/${alice.passkey.id}`, alice.cookie, { name: ' ' })).statusCode,
    ).toBe(400);
    expect((await alice.b.call('DELETE', `/api/user/passkeys/${alice.passkey.id}`, alice.cookie)).statusCode).toBe(204);
    expect((await alice.b.call('DELETE', `/api/user/passkeys/${alice.passkey.id}`, alice.cookie)).statusCode).toBe(404);
    expect(await passkeyCount('owner-a')).toBe(0);
    expect(await passkeyCount('owner-b')).toBe(1);
    // One audit event for the one removal; the refused ones left none.
    const removals = await t.database
      .db('events')
      .where({ type: 'passkey.removed' })
      .whereIn('subject', ['owner-a', 'owner-b'])
      .select('actor', 'subject');
    expect(removals).toEqual([{ actor: 'owner-a', subject: 'owner-a' }]);
  });

  it('signs in passwordless: a new session with amr hwk, the counter and the last use recorded', async () => {
    const { authenticator, passkey } = await withPasskey('nopw');
    clock.advance(1000);
    const b = browser();
    const options = await b.call('POST', '/api/auth/passkey/options', undefined, {});
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({
      rpId: 'localhost',
      allowCredentials: [],
      userVerification: 'required',
      timeout: 300_000,
    });
    const verified = await b.call('POST', '/api/auth/passkey/verify', undefined, {
      response: authenticator.assert(options.json() as never),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ sub: 'nopw', passkey_count: 1 });
    const cookie = sessionCookieOf(verified.headers['set-cookie']);
    const session = (await b.call('GET', '/api/auth/session', cookie)).json().session;
    expect(session.amr).toEqual(['hwk']);
    const listed = (await b.call('GET', '/api/user/passkeys', cookie)).json().passkeys;
    expect(listed).toEqual([{ ...passkey, last_used_at: new Date(clock.now()).toISOString() }]);
    expect((await t.database.db('passkeys').where({ id: passkey.id }).first()).sign_count).toBe(1);
    // Options need no body.
    expect((await b.call('POST', '/api/auth/passkey/options')).statusCode).toBe(200);
  });

  it('refuses an assertion that does not hold: 401 INVALID_PASSKEY, no session, nothing recorded', async () => {
    const { authenticator, passkey } = await withPasskey('badsig');
    const stranger = new SoftwareAuthenticator(origin);
    stranger.register({ challenge: 'x', rp: { name: 'idp' }, user: { id: 'eA', name: 'x' } });
    const b = browser();
    // One good sign-in first: the counter is 1 now, and a counter must go on rising.
    expect((await passwordless(b, authenticator)).statusCode).toBe(200);
    const before = await t.database.db('passkeys').where({ id: passkey.id }).first();
    clock.advance(1000);
    const tampered = async () => {
      const options = (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json();
      const response = authenticator.assert(options as never);
      const signature = Buffer.from(response.response.signature, 'base64url');
      signature[signature.length - 1] ^= 1;
      return b.call('POST', '/api/auth/passkey/verify', undefined, {
        response: { ...response, response: { ...response.response, signature: signature.toString('base64url') } },
      });
    };
    const withUserHandle = async (userHandle: string) => {
      const options = (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json();
      const response = authenticator.assert(options as never);
      return b.call('POST', '/api/auth/passkey/verify', undefined, {
        response: { ...response, response: { ...response.response, userHandle } },
      });
    };
    const refusals: [
      string,
      () => Promise<{ statusCode: number; json(): Record<string, unknown>; headers: Record<string, unknown> }>,
    ][] = [
      ['another origin', () => passwordless(b, authenticator, { origin: 'https://evil.example' })],
      ['another RP ID', () => passwordless(b, authenticator, { rpId: 'evil.example' })],
      ['another challenge', () => passwordless(b, authenticator, { challenge: 'bm90LWEtY2hhbGxlbmdlLW9mLW91cnM' })],
      ['a registration type', () => passwordless(b, authenticator, { type: 'webauthn.create' })],
      ['no user verification', () => passwordless(b, authenticator, { userVerified: false })],
      ['a counter that did not move', () => passwordless(b, authenticator, { signCount: 1 })],
      ['a counter that went back to zero', () => passwordless(b, authenticator, { signCount: 0 })],
      ['an unknown credential', () => passwordless(b, stranger)],
      ['a bad signature', tampered],
      ['another user handle', () => withUserHandle(Buffer.from('someone else').toString('base64url'))],
      [
        'malformed client data',
        async () => {
          const response = authenticator.assert(
            (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json() as never,
          );
          return b.call('POST', '/api/auth/passkey/verify', undefined, {
            response: { ...response, response: { ...response.response, clientDataJSON: '!!' } },
          });
        },
      ],
      [
        'malformed authenticator data',
        async () => {
          const response = authenticator.assert(
            (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json() as never,
          );
          return b.call('POST', '/api/auth/passkey/verify', undefined, {
            response: { ...response, response: { ...response.response, authenticatorData: 'AAAA' } },
          });
        },
      ],
      [
        'an expired challenge',
        async () => {
          const options = (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json();
          clock.advance(5 * 60_000 + 1);
          return b.call('POST', '/api/auth/passkey/verify', undefined, {
            response: authenticator.assert(options as never),
          });
        },
      ],
    ];
    for (const [what, attempt] of refusals) {
      const response = await attempt();
      expect(response.statusCode, what).toBe(401);
      expect(response.json(), what).toMatchObject({
        code: 'INVALID_PASSKEY',
        message: expect.stringMatching(/^The passkey could not be verified: .+\.$/),
      });
      expect(response.headers['set-cookie'], what).toBeUndefined();
    }
    expect(await t.database.db('passkeys').where({ id: passkey.id }).first()).toEqual(before);
    // Replayed: the assertion that worked once meets a spent challenge.
    const options = (await b.call('POST', '/api/auth/passkey/options', undefined, {})).json();
    const response = authenticator.assert(options as never);
    const [first, second] = await Promise.all([
      b.call('POST', '/api/auth/passkey/verify', undefined, { response }),
      b.call('POST', '/api/auth/passkey/verify', undefined, { response }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 401]);
    expect((await b.call('POST', '/api/auth/passkey/verify', undefined, { response })).statusCode).toBe(401);
    for (const body of [
      {},
      { response: 'text' },
      { response: { id: 'a', rawId: 'a', type: 'password', response: {} } },
    ]) {
      const invalid = await b.call('POST', '/api/auth/passkey/verify', undefined, body);
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses the passkey of a deleted account', async () => {
    const { authenticator } = await withPasskey('leaver');
    await t.database.db('users').where({ sub: 'leaver' }).update({ deleted_at: clock.now() });
    const refused = await passwordless(browser(), authenticator);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'INVALID_PASSKEY',
      message: 'The passkey could not be verified: the account of this passkey is gone.',
    });
  });

  it('completes a password sign-in as its second factor, under a new cookie value', async () => {
    const { authenticator } = await withPasskey('twofa');
    const b = browser();
    const { cookie, body } = await b.login('twofa@example.com');
    expect(body).toEqual({ status: 'second_factor_required', factors: ['passkey'], enrolment_required: false });
    const options = await b.call('POST', '/api/auth/passkey/options', cookie, {});
    expect(options.json().allowCredentials).toEqual([
      { id: authenticator.credentials[0].id.toString('base64url'), type: 'public-key', transports: ['internal'] },
    ]);
    const verified = await b.call('POST', '/api/auth/passkey/verify', cookie, {
      response: authenticator.assert(options.json() as never),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.sub).toBe('twofa');
    const signedIn = sessionCookieOf(verified.headers['set-cookie']);
    expect((await b.call('GET', '/api/auth/session', signedIn)).json().session.amr).toEqual(['pwd', 'hwk']);
  });

  it("does not let another account's passkey complete a pending sign-in", async () => {
    const victim = await withPasskey('victim');
    const intruder = await withPasskey('intruder');
    const b = browser();
    const { cookie } = await b.login('victim@example.com');
    const options = (await b.call('POST', '/api/auth/passkey/options', cookie, {})).json();
    const response = intruder.authenticator.assert({ ...options, allowCredentials: [] } as never);
    const refused = await b.call('POST', '/api/auth/passkey/verify', cookie, { response });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toContain('belongs to another account');
    expect((await b.call('GET', '/api/auth/session', cookie)).statusCode).toBe(401);
    // A challenge asked by this pending session is no good from another browser, even with the right passkey.
    const second = (await b.call('POST', '/api/auth/passkey/options', cookie, {})).json();
    const elsewhere = await browser().call('POST', '/api/auth/passkey/verify', undefined, {
      response: victim.authenticator.assert(second as never),
    });
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.headers['set-cookie']).toBeUndefined();
  });

  it('is off everywhere with auth.passkeys_enabled false: 403 PASSKEYS_DISABLED, and passkeys are no factor', async () => {
    const base = testConfig();
    const off = await createTestApp(kind, { auth: { ...base.auth, passkeysEnabled: false } });
    try {
      await seedUser(off, { sub: 'p', email: 'p@example.com' });
      await off.database.db('passkeys').insert({
        id: '11111111-1111-1111-1111-111111111111',
        sub: 'p',
        credential_id: 'c',
        name: 'Old',
        public_key: 'k',
        sign_count: 0,
        transports: '[]',
        device_type: 'singleDevice',
        backed_up: false,
        created_at: 1,
        last_used_at: null,
      });
      const b = browserAt(off, '10.2.9.1');
      const { cookie, body } = await b.login('p@example.com');
      expect(body.user).toMatchObject({ sub: 'p', passkey_count: 1 });
      const disabled = { code: 'PASSKEYS_DISABLED', message: 'Passkeys are turned off on this server.' };
      for (const [method, url, payload] of [
        ['POST', '/api/auth/passkey/options', {}],
        ['POST', '/api/auth/passkey/verify', { response: { id: 'c', rawId: 'c', type: 'public-key', response: {} } }],
        ['GET', '/api/user/passkeys', undefined],
        ['POST', '/api/user/passkeys/options', undefined],
        [
          'POST',
          '/api/user/passkeys',
          { response: { id: 'c', rawId: 'c', type: 'public-key', response: {} }, name: 'n' },
        ],
        ['PATCH', '/api/user/passkeys/11111111-1111-1111-1111-111111111111', { name: 'n' }],
        ['DELETE', '/api/user/passkeys/11111111-1111-1111-1111-111111111111', undefined],
      ] as const) {
        const response = await b.call(method, url, cookie, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json()).toEqual(disabled);
      }
    } finally {
      await off.destroy();
    }
  });
});
