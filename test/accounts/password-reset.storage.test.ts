import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { linkToken, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';
import { freshAddress, mailConfig, runJobs } from './mail-app.js';

/**
 * docs/http-api.md, "Self-service accounts": POST /api/auth/password/forgot (202 always) and
 * /api/auth/password/reset, through the real server, a real SMTP server and
 * the mail it receives; the reset ends every session and refresh token.
 */
const INVALID_TOKEN = { code: 'INVALID_TOKEN', message: 'The link is invalid, has expired or has already been used.' };
const client = testClient({ clientId: 'web' });
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

describe.each(databaseKinds)('forgotten password on %s', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;
  const forgot = (email: string, headers: Record<string, string> = {}) =>
    inject(t, 'POST', '/api/auth/password/forgot', undefined, { email }, { ...freshAddress(), ...headers });
  const reset = (token: string, password: string) =>
    inject(t, 'POST', '/api/auth/password/reset', undefined, { token, password });
  const login = (email: string, password: string) =>
    inject(t, 'POST', '/api/auth/login', undefined, { email, password }, freshAddress());

  /** A refresh token of `sub` for the client, through the real token endpoint (the code inserted as /oauth2/authorize would). */
  async function refreshTokenOf(sub: string): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const now = Date.now();
    await t.app.storage.repositories.authorizationCodes.insert(t.app.storage.db, {
      codeHash: sha256(code),
      grantId: randomBytes(16).toString('base64url'),
      clientId: 'web',
      sub,
      redirectUri: client.redirectUris[0],
      scopes: ['openid', 'offline_access'],
      nonce: null,
      codeChallenge: sha256(verifier),
      codeChallengeMethod: 'S256',
      authTime: now,
      amr: [],
      claims: null,
      sessionId: null,
      sid: null,
      expiresAt: now + 60_000,
      consumedAt: null,
      createdAt: now,
    });
    const response = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0],
      code_verifier: verifier,
    });
    expect(response.statusCode).toBe(200);
    return JSON.parse(response.payload).refresh_token as string;
  }
  const tokenRequest = (form: Record<string, string>) =>
    t.app.server.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: {
        authorization: `Basic ${Buffer.from(`web:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(form).toString(),
    });

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(
      kind,
      mailConfig(sink.port, { clients: [client], users: [testUser({ sub: 'cfg', email: 'cfg@example.com' })] }),
    );
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'quinn', email: 'Quinn@example.com' });
    await seedUser(t, { sub: 'gone', email: 'gone@example.com', deletedAt: Date.now() - 1000 });
  });
  afterEach(async () => {
    await runJobs(t);
    sink.drain();
  });
  afterAll(async () => {
    await t.destroy();
    await sink.close();
  });

  it('mails a German reset link; the new password ends every session and refresh token, and the link works once', async () => {
    const sessions = [await signIn(t, 'quinn@example.com'), await signIn(t, 'quinn@example.com')];
    const refreshToken = await refreshTokenOf('quinn');

    const response = await forgot('QUINN@example.com', { 'accept-language': 'de' });
    expect(response.statusCode).toBe(202);
    expect(await runJobs(t)).toMatchObject([{ outcome: 'succeeded' }]);
    const mail = await sink.next();
    expect(mail.subject).toBe('Ihr Passwort für Example ID zurücksetzen');
    expect(mail.text).toContain('Für das Example ID-Konto von Quinn@example.com wurde ein neues Passwort angefordert.');
    expect(mail.text).toContain('läuft in 1 Stunde ab');
    expect(mail.html).toContain('<html lang="de">');
    const token = linkToken(mail, 'http://localhost:8080/reset-password');

    // A refused password does not use the link up.
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      code: 'PASSWORD_TOO_SHORT',
      message: 'The password must be at least 8 characters long.',
    });

    const done = await reset(token, 'a brand new password');
    expect(done.statusCode).toBe(204);
    expect(done.payload).toBe('');
    for (const cookie of sessions) expect((await inject(t, 'GET', '/api/auth/session', cookie)).statusCode).toBe(401);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refreshed.statusCode).toBe(400);
    expect(JSON.parse(refreshed.payload).error).toBe('invalid_grant');

    expect((await login('quinn@example.com', testPassword)).statusCode).toBe(401);
    expect((await login('quinn@example.com', 'a brand new password')).statusCode).toBe(200);
    expect((await reset(token, 'yet another password')).json()).toEqual(INVALID_TOKEN);
    // The link proved the address.
    const user = await t.app.storage.repositories.users.findBySub(t.app.storage.db, 'quinn');
    expect(user?.emailVerified).toBe(true);
    const { events } = await t.app.storage.repositories.events.list(t.app.storage.db, {
      type: 'password.reset',
      page: 1,
      pageSize: 10,
    });
    expect(events).toEqual([expect.objectContaining({ actor: 'quinn', subject: 'quinn', clientAddress: '127.0.0.1' })]);
  });

  it('writes the reset mail in English for an English request, and one link ends the others', async () => {
    await forgot('quinn@example.com', { 'accept-language': 'en-US' });
    await forgot('quinn@example.com', { 'accept-language': 'en-US' });
    await runJobs(t);
    const [first, second] = [await sink.next(), await sink.next()];
    expect(first.subject).toBe('Reset your Example ID password');
    expect(first.text).toContain('expires in 1 hour');
    const [a, b] = [linkToken(first, '/reset-password'), linkToken(second, '/reset-password')];
    expect(a).not.toBe(b);
    expect((await reset(b, 'the second new password')).statusCode).toBe(204);
    expect((await reset(a, 'the first new password')).json()).toEqual(INVALID_TOKEN);
    expect((await login('quinn@example.com', 'the second new password')).statusCode).toBe(200);
  });

  it('answers 202 alike for an account, an unknown address, a soft-deleted and a config-managed user, and mails only the account', async () => {
    const answers = [];
    for (const email of ['quinn@example.com', 'nobody@example.com', 'gone@example.com', 'cfg@example.com']) {
      const response = await forgot(email);
      answers.push({
        status: response.statusCode,
        body: response.payload,
        headers: { ...response.headers, date: undefined },
      });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0].status).toBe(202);
    // The same work for each: one job each, all of which succeed; whether a mail goes is decided there.
    expect((await runJobs(t)).map((r) => r.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(linkToken(await sink.next(), '/reset-password')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(sink.next(300)).rejects.toThrow('no mail arrived');
  });

  it('takes as long for an unknown address as for an account (medians of interleaved requests)', async () => {
    const timings: Record<string, number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 15; i++) {
      for (const [label, email] of [
        ['known', 'quinn@example.com'],
        ['unknown', `ghost${i}@example.com`],
      ] as const) {
        const started = performance.now();
        expect(
          (await inject(t, 'POST', '/api/auth/password/forgot', undefined, { email }, freshAddress())).statusCode,
        ).toBe(202);
        timings[label].push(performance.now() - started);
      }
      // Reset the per-e-mail counter of the known address (5 per window in the test config).
      await t.database.db('login_rate_limits').where('key', 'like', 'password_forgot:account:%').delete();
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    const [known, unknown] = [median(timings.known), median(timings.unknown)];
    // Same statements either way; the bound only catches a path that does much more (an argon2 hash, a send).
    expect(Math.max(known, unknown) / Math.min(known, unknown)).toBeLessThan(3);
  });

  it('answers 400 INVALID_TOKEN for a token that is not one, of another purpose, or of a user who left', async () => {
    for (const token of ['nope', 'B'.repeat(43)])
      expect((await reset(token, 'a long password')).json()).toEqual(INVALID_TOKEN);
    // A verification token is no reset token.
    await seedUser(t, {
      sub: 'rita',
      email: 'rita@example.com',
      emailVerified: false,
      emailVerificationRequired: true,
    });
    await inject(t, 'POST', '/api/auth/email/resend', undefined, { email: 'rita@example.com' }, freshAddress());
    await runJobs(t);
    const verification = linkToken(await sink.next(), '/verify-email');
    expect((await reset(verification, 'a long password')).json()).toEqual(INVALID_TOKEN);
    // The user is soft-deleted after the link was sent.
    await forgot('rita@example.com');
    await runJobs(t);
    const resetToken = linkToken(await sink.next(), '/reset-password');
    await t.database.db('users').where({ sub: 'rita' }).update({ deleted_at: Date.now() });
    expect((await reset(resetToken, 'a long password')).json()).toEqual(INVALID_TOKEN);
  });

  it('rate limits forgot per e-mail and per client address with 429 and Retry-After, apart from resend', async () => {
    for (let i = 0; i < 5; i++) expect((await forgot('sam@example.com')).statusCode).toBe(202);
    const limited = await forgot('sam@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Try again later.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await inject(t, 'POST', '/api/auth/email/resend', undefined, { email: 'sam@example.com' }, freshAddress()))
        .statusCode,
    ).toBe(202);

    const address = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) expect((await forgot(`tom${i}@example.com`, address)).statusCode).toBe(202);
    expect((await forgot('tom9@example.com', address)).statusCode).toBe(429);
  });

  it('answers 400 VALIDATION_ERROR for wrong types and malformed addresses, never 500', async () => {
    for (const body of [
      {},
      { email: 5 },
      { email: 'no-at-sign' },
      { email: `${'x'.repeat(320)}@example.com` },
      { email: ['a@example.com'] },
      { email: 'a@example.com', extra: 1 },
    ]) {
      const response = await inject(t, 'POST', '/api/auth/password/forgot', undefined, body, freshAddress());
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    for (const body of [
      { token: 'x' },
      { password: 'a long password' },
      { token: 'x', password: 5 },
      { token: 'x', password: 'x'.repeat(257) },
    ]) {
      expect((await inject(t, 'POST', '/api/auth/password/reset', undefined, body)).json().code).toBe(
        'VALIDATION_ERROR',
      );
    }
  });
});
