import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knexAuthorizationCodeRepository as codes } from '../../src/storage/knex/authorization-codes.js';
import { knexTokenRepository as tokens } from '../../src/storage/knex/tokens.js';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';
import { NOT_EDITABLE, UNAUTHORIZED } from '../support/spec-shapes.js';

/** docs/http-api.md, "Your own account": POST /api/user/password through the real server (the tokens' side: test/e2e/account-tokens.storage.test.ts). */
const WRONG = { code: 'INVALID_CREDENTIALS', message: 'The password is incorrect.' };
const newPassword = 'a brand new passphrase';

describe.each(databaseKinds)('changing the password on %s', (kind) => {
  let t: TestApp;
  let address = 0;
  /** Each test its own client address (trust_proxy: one hop), so that the address counter of one test never blocks another. */
  const from = () => ({ 'x-forwarded-for': `10.2.0.${++address}` });
  const change = (cookie: string, payload: unknown, headers: Record<string, string> = from()) =>
    inject(t, 'POST', '/api/user/password', cookie, payload, headers);
  const login = (email: string, password: string) =>
    inject(t, 'POST', '/api/auth/login', undefined, { email, password }, from());
  const sessionsOf = async (sub: string) =>
    (await t.database.db('sessions').where({ sub }).select('id_hash')).map((row) => row.id_hash as string);

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
      auth: { ...base.auth, passwordMinLength: 12 },
    });
    for (const sub of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) await seedUser(t, { sub });
    await seedUser(t, { sub: 'cfg', managedBy: 'config' });
  });
  afterAll(() => t.destroy());

  it('answers 204; the new password signs in and the old one no longer does', async () => {
    const cookie = await signIn(t, 'alice@example.com');
    const response = await change(
      cookie,
      { current_password: testPassword, new_password: newPassword },
      { ...from(), origin: 'http://localhost:8080' },
    );
    expect(response.statusCode).toBe(204);
    expect(response.payload).toBe('');
    expect((await login('alice@example.com', testPassword)).statusCode).toBe(401);
    expect((await login('alice@example.com', newPassword)).statusCode).toBe(200);
    expect((await inject(t, 'GET', '/api/user', cookie)).json().user.has_password).toBe(true);
  });

  it('ends every other session of the user and what they obtained; the calling session and its own grant stay', async () => {
    const mine = await signIn(t, 'bob@example.com');
    const [mineHash] = await sessionsOf('bob');
    const other = await signIn(t, 'bob@example.com');
    const [otherHash] = (await sessionsOf('bob')).filter((hash) => hash !== mineHash);
    const carol = await signIn(t, 'carol@example.com');
    const now = Date.now();
    const grant = (grantId: string, sub: string, sessionId: string | null) => ({
      grantId,
      clientId: 'web',
      sub,
      scopes: ['openid', 'offline_access'],
      authTime: now,
      amr: [],
      claims: null,
      sessionId,
      sid: null,
      revokedAt: null,
      expiresAt: now + 60_000,
      createdAt: now,
    });
    for (const g of [
      grant('g-mine', 'bob', mineHash),
      grant('g-other', 'bob', otherHash),
      grant('g-none', 'bob', null),
      grant('g-carol', 'carol', 'x'),
    ]) {
      await tokens.insertGrant(t.database.tx, g);
      await tokens.insertRefreshToken(t.database.tx, {
        tokenHash: `rt-${g.grantId}`,
        grantId: g.grantId,
        clientId: 'web',
        sub: g.sub,
        scopes: g.scopes,
        expiresAt: now + 60_000,
        rotatedAt: null,
        revokedAt: null,
        createdAt: now,
      });
    }
    await t.database.db('clients').insert({
      client_id: 'web',
      name: 'Web',
      redirect_uris: '[]',
      post_logout_redirect_uris: '[]',
      grant_types: '[]',
      token_endpoint_auth_method: 'none',
      scopes: '[]',
      require_pkce: true,
      skip_consent: false,
      managed_by: 'config',
      created_at: now,
      updated_at: now,
    });
    const code = (codeHash: string, sessionId: string | null, consumedAt: number | null = null) => ({
      codeHash,
      grantId: `gc-${codeHash}`,
      clientId: 'web',
      sub: 'bob',
      redirectUri: 'https://web.example/cb',
      scopes: ['openid'],
      nonce: null,
      codeChallenge: null,
      codeChallengeMethod: null,
      authTime: now,
      amr: [],
      claims: null,
      sessionId,
      sid: null,
      expiresAt: now + 60_000,
      consumedAt,
      createdAt: now,
    });
    for (const c of [
      code('c-mine', mineHash),
      code('c-other', otherHash),
      code('c-none', null),
      code('c-used', otherHash, now),
    ])
      await codes.insert(t.database.tx, c);

    expect((await change(mine, { current_password: testPassword, new_password: newPassword })).statusCode).toBe(204);

    expect((await inject(t, 'GET', '/api/auth/session', mine)).statusCode).toBe(200);
    expect((await inject(t, 'GET', '/api/auth/session', other)).json()).toEqual(UNAUTHORIZED);
    expect((await inject(t, 'GET', '/api/auth/session', carol)).statusCode).toBe(200);
    expect(await sessionsOf('bob')).toEqual([mineHash]);
    const revoked = async (grantId: string) => [
      (await tokens.findGrant(t.database.tx, grantId))?.revokedAt !== null,
      (await tokens.findRefreshToken(t.database.tx, `rt-${grantId}`))?.revokedAt !== null,
    ];
    expect(await revoked('g-mine')).toEqual([false, false]);
    expect(await revoked('g-other')).toEqual([true, true]);
    expect(await revoked('g-none')).toEqual([true, true]);
    expect(await revoked('g-carol')).toEqual([false, false]);
    const left = (await t.database.db('authorization_codes').where({ sub: 'bob' }).select('code_hash'))
      .map((row) => row.code_hash)
      .sort();
    expect(left).toEqual(['c-mine', 'c-used']);
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong current password and changes nothing', async () => {
    const cookie = await signIn(t, 'carol@example.com');
    const other = await signIn(t, 'carol@example.com');
    const response = await change(cookie, { current_password: 'not my password', new_password: newPassword });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(WRONG);
    expect((await login('carol@example.com', testPassword)).statusCode).toBe(200);
    expect((await inject(t, 'GET', '/api/auth/session', other)).statusCode).toBe(200);
  });

  it('counts wrong current passwords against the login rate limit of the account: 429 with Retry-After, even with the right one', async () => {
    const cookie = await signIn(t, 'dave@example.com');
    for (let i = 0; i < 5; i += 1)
      expect((await change(cookie, { current_password: `wrong ${i}`, new_password: newPassword })).statusCode).toBe(
        401,
      );
    const blocked = await change(cookie, { current_password: testPassword, new_password: newPassword });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('dave@example.com', testPassword)).statusCode).toBe(429);
  });

  it('answers 400 without current_password when the user has one, and PASSWORD_TOO_SHORT below auth.password_min_length', async () => {
    const cookie = await signIn(t, 'erin@example.com');
    const missing = await change(cookie, { new_password: newPassword });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'payload.current_password', message: '"current_password" is required' }],
    });
    for (const short of ['', 'elevenchars', '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑']) {
      const tooShort = await change(cookie, { current_password: testPassword, new_password: short });
      expect(tooShort.statusCode).toBe(400);
      expect(tooShort.json()).toEqual({
        code: 'PASSWORD_TOO_SHORT',
        message: 'The password must be at least 12 characters long.',
      });
    }
    expect((await login('erin@example.com', testPassword)).statusCode).toBe(200);
  });

  it.each([
    ['no new_password', { current_password: testPassword }],
    ['a new_password over 256 characters', { current_password: testPassword, new_password: 'x'.repeat(257) }],
    ['a number', { current_password: testPassword, new_password: 123456789012345 }],
    ['a list', { current_password: [testPassword], new_password: newPassword }],
    ['an empty current_password', { current_password: '', new_password: newPassword }],
    ['a NUL', { current_password: testPassword, new_password: `${newPassword}\u0000` }],
    ['an unknown key', { current_password: testPassword, new_password: newPassword, confirm: newPassword }],
  ])('answers 400 VALIDATION_ERROR for %s, never 500', async (_, payload) => {
    const cookie = await signIn(t, 'erin@example.com');
    const response = await change(cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('lets a user without a password set one without current_password', async () => {
    const cookie = await signIn(t, 'frank@example.com');
    await t.database.db('users').where({ sub: 'frank' }).update({ password_hash: null });
    const response = await change(cookie, { new_password: newPassword });
    expect(response.statusCode).toBe(204);
    expect((await login('frank@example.com', newPassword)).statusCode).toBe(200);
  });

  it('answers 403 USER_NOT_EDITABLE for a config-managed user, whose password is in the file', async () => {
    const cookie = await signIn(t, 'cfg@example.com');
    const response = await change(cookie, { current_password: testPassword, new_password: newPassword });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(NOT_EDITABLE);
    expect((await login('cfg@example.com', testPassword)).statusCode).toBe(200);
  });

  it('answers 401 without a session and 403 ORIGIN_NOT_ALLOWED from another origin', async () => {
    expect((await change('', { current_password: testPassword, new_password: newPassword })).json()).toEqual(
      UNAUTHORIZED,
    );
    const cookie = await signIn(t, 'erin@example.com');
    const foreign = await change(
      cookie,
      { current_password: testPassword, new_password: newPassword },
      { ...from(), origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('stores the new password as an argon2id hash, never in clear', async () => {
    const row = await t.database.db('users').where({ sub: 'alice' }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(newPassword);
    expect(await verifyPassword(row.password_hash, newPassword)).toBe(true);
  });
});
