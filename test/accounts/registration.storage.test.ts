import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import type { Config } from '../../src/config/types.js';
import { testConfig, testTerm } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { EMAIL_EXISTS, adminUserFields, sessionUserFields } from '../support/spec-shapes.js';
import { linkToken, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import {
  createTestApp,
  inject,
  seedUser,
  sessionCookieOf,
  signIn,
  testPassword,
  type TestApp,
} from '../support/test-app.js';
import { freshAddress, mailConfig, runJobs } from './mail-app.js';

/**
 * docs/http-api.md, "Self-service accounts": POST /api/auth/register, /api/auth/email/verify and
 * /api/auth/email/resend, and the login's 403 EMAIL_NOT_VERIFIED, through
 * the real server, a real SMTP server and the mail it receives.
 */
const INVALID_TOKEN = { code: 'INVALID_TOKEN', message: 'The link is invalid, has expired or has already been used.' };
const terms = [
  testTerm({ id: 'tos', required: true, version: '3' }),
  testTerm({ id: 'newsletter', required: false, version: '1' }),
  testTerm({ id: 'privacy', required: true, consentMode: 'implicit', version: '2' }),
];

describe.each(databaseKinds)('registration and e-mail verification on %s', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;
  let admin: string;
  const others: App[] = [];
  const register = (
    body: unknown,
    headers: Record<string, string> = {},
    url = '/api/auth/register',
    target: TestApp | App = t,
  ) =>
    'app' in target
      ? inject(target, 'POST', url, undefined, body, { ...freshAddress(), ...headers })
      : injectInto(target, url, body, headers);

  /** Another app on the same database with other settings. */
  async function appWith(overrides: Partial<Config>): Promise<App> {
    const app = await createApp(testConfig({ ...t.config, ...overrides }), {
      storage: t.database.storage,
      logger: pino({ level: 'silent' }),
    });
    others.push(app);
    return app;
  }
  async function injectInto(app: App, url: string, body: unknown, headers: Record<string, string>) {
    const response = await app.server.inject({ method: 'POST', url, payload: body as object, headers });
    return Object.assign(response, { json: () => JSON.parse(response.payload) as Record<string, any> });
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    const config = mailConfig(sink.port, { terms });
    config.registration = { ...config.registration!, allowedEmailPatterns: ['*@example.com', 'Team-*@Example.ORG'] };
    t = await createTestApp(kind, config);
    await seedUser(t, { sub: 'root', role: 'admin', email: 'root@example.com' });
    admin = await signIn(t, 'root@example.com');
  });
  // Each test reads only the mails it caused.
  afterEach(async () => {
    await runJobs(t);
    sink.drain();
  });
  afterAll(async () => {
    for (const app of others) await app.stop({ timeoutMs: 1000 });
    await t.destroy();
    await sink.close();
  });

  it('registers, mails a verification link in English, refuses the login until the link is followed, then signs in', async () => {
    const response = await register(
      { email: 'Ada@Example.com', password: 'a long password', accepted_terms: ['tos'] },
      { 'accept-language': 'en-GB,en;q=0.8' },
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['status', 'user']);
    expect(body.status).toBe('verification_required');
    expect(Object.keys(body.user).sort()).toEqual(sessionUserFields);
    expect(body.user).toMatchObject({
      managed_by: 'database',
      email: 'Ada@Example.com',
      role: 'user',
      email_verified: false,
      email_verification_required: true,
      has_password: true,
    });
    expect(response.headers['set-cookie']).toBeUndefined();

    // The admin user fields, through the admin API.
    const listed = await inject(t, 'GET', `/api/admin/users/${body.user.sub}`, admin);
    expect(Object.keys(listed.json().user).sort()).toEqual(adminUserFields);
    expect(listed.json().user).toMatchObject({
      managed_by: 'database',
      email_verified: false,
      email_verification_required: true,
      has_password: true,
      deleted_at: null,
      totp_registered: false,
      passkey_count: 0,
    });

    // The job holds no token: the handler mints it when it sends.
    const [job] = await t.app.storage.repositories.backgroundJobs.list(t.app.storage.db, {
      state: 'pending',
      limit: 10,
    });
    expect(job).toMatchObject({
      kind: 'mail.send',
      payload: { template: 'email_verification', email: 'Ada@Example.com', locale: 'en' },
    });
    expect(await runJobs(t)).toMatchObject([{ outcome: 'succeeded' }]);

    const mail = await sink.next();
    // nodemailer writes the domain in lower case (IDN normalisation); the local part stays as registered.
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('Ada@example.com');
    expect(mail.from?.text).toBe('"Example ID" <id@example.com>');
    expect(mail.subject).toBe('Confirm your e-mail address for Example ID');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.text).toContain('Please confirm that Ada@Example.com is your e-mail address for Example ID.');
    expect(mail.text).toContain('expires in 24 hours');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain('src="https://cdn.example.com/logo.png"');
    // A light accent gets dark text (WCAG contrast).
    expect(mail.html).toContain('background:#ffcc00;color:#000000');
    const token = linkToken(mail, 'http://localhost:8080/verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="http://localhost:8080/verify-email?token=${token}"`);

    const refused = await inject(t, 'POST', '/api/auth/login', undefined, {
      email: 'ada@example.com',
      password: 'a long password',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: expect.stringContaining('verified') });
    expect(refused.headers['set-cookie']).toBeUndefined();

    const verified = await inject(t, 'POST', '/api/auth/email/verify', undefined, { token });
    expect(verified.statusCode).toBe(200);
    expect(Object.keys(verified.json().user).sort()).toEqual(sessionUserFields);
    expect(verified.json().user).toMatchObject({
      sub: body.user.sub,
      email_verified: true,
      email_verification_required: true,
    });
    const again = await inject(t, 'POST', '/api/auth/email/verify', undefined, { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID_TOKEN);

    expect(
      (await inject(t, 'POST', '/api/auth/login', undefined, { email: 'ada@example.com', password: 'a long password' }))
        .statusCode,
    ).toBe(200);

    // The audit log (issue #14): the registration, the terms it accepted, the verification, the sign-in.
    const { events } = await t.app.storage.repositories.events.list(t.app.storage.db, {
      subject: body.user.sub,
      page: 1,
      pageSize: 10,
    });
    expect(events.map((e) => [e.type, e.actor, e.detail]).reverse()).toEqual([
      ['registration', body.user.sub, { email_verification_required: true }],
      ['terms.accepted', body.user.sub, { terms: ['tos@3', 'privacy@2'] }],
      ['email.verified', body.user.sub, {}],
      ['sign_in.succeeded', body.user.sub, { amr: ['pwd'] }],
    ]);
    expect(events.every((e) => e.clientAddress !== null)).toBe(true);
  });

  it('writes the mail in German for a German request, in the language of ?locale= before Accept-Language', async () => {
    expect(
      (
        await register(
          { email: 'berta@example.com', password: 'ein langes Passwort', accepted_terms: ['tos'] },
          { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' },
        )
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await register(
          { email: 'carl@example.com', password: 'ein langes Passwort', accepted_terms: ['tos'] },
          { 'accept-language': 'en' },
          '/api/auth/register?locale=de',
        )
      ).statusCode,
    ).toBe(201);
    await runJobs(t);
    for (const address of ['berta@example.com', 'carl@example.com']) {
      const mail = await sink.next();
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(address);
      expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Example ID');
      expect(mail.text).toContain(`Bitte bestätigen Sie, dass ${address} Ihre E-Mail-Adresse für Example ID ist.`);
      expect(mail.text).toContain('läuft in 24 Stunden ab');
      expect(mail.html).toContain('<html lang="de">');
      expect(mail.html).toContain('E-Mail-Adresse bestätigen');
      expect(mail.headers.get('content-language')).toBe('de');
      const verified = await inject(t, 'POST', '/api/auth/email/verify', undefined, {
        token: linkToken(mail, '/verify-email'),
      });
      expect(verified.json().user.email_verified).toBe(true);
    }
  });

  it('records the accepted terms at their current version, implicit ones included, and never the unknown ones', async () => {
    const response = await register({
      email: 'dora@example.com',
      password: 'a long password',
      accepted_terms: ['tos', 'newsletter', 'nonexistent'],
    });
    expect(response.statusCode).toBe(201);
    const recorded = await t.app.storage.repositories.termAcceptances.listBySub(
      t.app.storage.db,
      response.json().user.sub,
    );
    expect(recorded.map((a) => [a.termId, a.version]).sort()).toEqual([
      ['newsletter', '1'],
      ['privacy', '2'],
      ['tos', '3'],
    ]);
    expect(new Set(recorded.map((a) => a.acceptedAt)).size).toBe(1);
  });

  it.each([
    [{ email: 'eve@example.com', password: 'a long password' }, 'tos'],
    [{ email: 'eve@example.com', password: 'a long password', accepted_terms: ['newsletter', 'privacy'] }, 'tos'],
  ])('answers 400 TERMS_NOT_ACCEPTED without every required explicit term (%j)', async (body, missing) => {
    const response = await register(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'TERMS_NOT_ACCEPTED',
      message: `The required terms must be accepted: ${missing}.`,
    });
    expect(await t.database.db('users').where({ email_normalized: 'eve@example.com' })).toEqual([]);
  });

  it('answers 403 EMAIL_NOT_ALLOWED outside allowed_email_patterns (case-insensitive, * wildcards)', async () => {
    for (const email of [
      'frank@example.net',
      'frank@sub.example.com.evil.net',
      'team@example.org',
      'x-team-a@example.org',
    ]) {
      const response = await register({ email, password: 'a long password', accepted_terms: ['tos'] });
      expect(response.statusCode, email).toBe(403);
      expect(response.json()).toEqual({
        code: 'EMAIL_NOT_ALLOWED',
        message: 'This e-mail address may not be used to register here.',
      });
    }
    expect(
      (await register({ email: 'TEAM-a@example.org', password: 'a long password', accepted_terms: ['tos'] }))
        .statusCode,
    ).toBe(201);
  });

  it('answers 409 EMAIL_ALREADY_EXISTS with the admin API message, whatever the case, and for a config or admin-made user', async () => {
    await seedUser(t, { sub: 'gina', email: 'gina@example.com', managedBy: 'config' });
    for (const email of ['root@example.com', 'GINA@example.com', 'Ada@example.COM']) {
      const response = await register({ email, password: 'a long password', accepted_terms: ['tos'] });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(EMAIL_EXISTS);
    }
  });

  it('lets one of two concurrent registrations of an address win; the other answers 409', async () => {
    const body = { email: 'race@example.com', password: 'a long password', accepted_terms: ['tos'] };
    const answers = await Promise.all([register(body), register({ ...body, email: 'RACE@example.com' })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.statusCode === 409)?.json()).toEqual(EMAIL_EXISTS);
    expect(await t.database.db('users').where({ email_normalized: 'race@example.com' })).toHaveLength(1);
  });

  it("lets a soft-deleted account's address register anew", async () => {
    await seedUser(t, { sub: 'gone', email: 'gone@example.com', deletedAt: Date.now() });
    expect(
      (await register({ email: 'gone@example.com', password: 'a long password', accepted_terms: ['tos'] })).statusCode,
    ).toBe(201);
  });

  it('answers 400 PASSWORD_TOO_SHORT below auth.password_min_length, counting characters, not bytes', async () => {
    for (const password of ['', 'seven77', '🔑🔑🔑🔑🔑🔑🔑']) {
      const response = await register({ email: 'hugo@example.com', password, accepted_terms: ['tos'] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'PASSWORD_TOO_SHORT',
        message: 'The password must be at least 8 characters long.',
      });
    }
    expect(
      (await register({ email: 'hugo@example.com', password: '🔑🔑🔑🔑🔑🔑🔑🔑', accepted_terms: ['tos'] })).statusCode,
    ).toBe(201);
  });

  it('answers 400 INVALID_TOKEN for a token that is not one, and VALIDATION_ERROR for what is not a string', async () => {
    for (const token of ['nope', 'A'.repeat(43), 'A'.repeat(512)]) {
      const response = await inject(t, 'POST', '/api/auth/email/verify', undefined, { token });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID_TOKEN);
    }
    for (const body of [{}, { token: 5 }, { token: '' }, { token: 'x'.repeat(513) }, { token: ['a'] }]) {
      expect((await inject(t, 'POST', '/api/auth/email/verify', undefined, body)).json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('resends the verification mail to an unverified account only, and answers 202 with nothing to tell apart', async () => {
    expect(
      (await register({ email: 'ivy@example.com', password: 'a long password', accepted_terms: ['tos'] })).statusCode,
    ).toBe(201);
    await runJobs(t);
    const first = linkToken(await sink.next(), '/verify-email');
    const answers = [];
    for (const email of ['ivy@example.com', 'root@example.com', 'nobody@example.com']) {
      const response = await inject(
        t,
        'POST',
        '/api/auth/email/resend',
        undefined,
        { email },
        { ...freshAddress(), 'accept-language': 'de' },
      );
      answers.push({
        status: response.statusCode,
        body: response.payload,
        headers: { ...response.headers, date: undefined },
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[1]).toEqual(answers[2]);
    expect(answers[0].status).toBe(202);
    expect(answers[0].body).toBe('');
    // Every address got the same work: one job each; only the unverified account gets a mail.
    expect((await runJobs(t)).map((r) => r.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const resent = await sink.next();
    expect(resent.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Example ID');
    await expect(sink.next(300)).rejects.toThrow('no mail arrived');
    // Either link works, once: following one voids the other.
    const second = linkToken(resent, '/verify-email');
    expect(second).not.toBe(first);
    expect((await inject(t, 'POST', '/api/auth/email/verify', undefined, { token: second })).statusCode).toBe(200);
    expect((await inject(t, 'POST', '/api/auth/email/verify', undefined, { token: first })).json()).toEqual(
      INVALID_TOKEN,
    );
  });

  it('a link mailed before the address changed verifies nothing', async () => {
    const created = await register({ email: 'jan@example.com', password: 'a long password', accepted_terms: ['tos'] });
    await runJobs(t);
    const token = linkToken(await sink.next(), '/verify-email');
    const sub = created.json().user.sub;
    expect(
      (await inject(t, 'PATCH', `/api/admin/users/${sub}`, admin, { email: 'jan.new@example.com' })).statusCode,
    ).toBe(200);
    expect((await inject(t, 'POST', '/api/auth/email/verify', undefined, { token })).json()).toEqual(INVALID_TOKEN);
    expect((await inject(t, 'GET', `/api/admin/users/${sub}`, admin)).json().user.email_verified).toBe(false);
  });

  it('rate limits resend per e-mail and per client address: 429 with Retry-After', async () => {
    // security.login_rate_limit of the test config: 5 per 900 s.
    for (let i = 0; i < 5; i++)
      expect(
        (await inject(t, 'POST', '/api/auth/email/resend', undefined, { email: 'kim@example.com' }, freshAddress()))
          .statusCode,
      ).toBe(202);
    const perEmail = await inject(
      t,
      'POST',
      '/api/auth/email/resend',
      undefined,
      { email: 'KIM@example.com' },
      freshAddress(),
    );
    expect(perEmail.statusCode).toBe(429);
    expect(perEmail.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Try again later.' });
    expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(890);

    const address = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 5; i++)
      expect(
        (await inject(t, 'POST', '/api/auth/email/resend', undefined, { email: `lee${i}@example.com` }, address))
          .statusCode,
      ).toBe(202);
    const perAddress = await inject(
      t,
      'POST',
      '/api/auth/email/resend',
      undefined,
      { email: 'lee9@example.com' },
      address,
    );
    expect(perAddress.statusCode).toBe(429);
    expect(perAddress.headers['retry-after']).toBeDefined();
    // The login's own counters are apart: the address can still sign in.
    expect(
      (
        await inject(
          t,
          'POST',
          '/api/auth/login',
          undefined,
          { email: 'root@example.com', password: testPassword },
          address,
        )
      ).statusCode,
    ).toBe(200);
    await runJobs(t);
  });

  it('rate limits registration per client address: 429 with Retry-After, nothing created, apart from the other limits', async () => {
    // security.login_rate_limit of the test config: 5 per 900 s, as for resend and forgot.
    const address = { 'x-forwarded-for': '203.0.113.88' };
    const body = (email: string) => ({ email, password: 'a long password', accepted_terms: ['tos'] });
    for (let i = 0; i < 4; i++) expect((await register(body(`mass${i}@example.com`), address)).statusCode).toBe(201);
    // A refused registration counts too: every request does.
    expect((await register(body('mass0@example.com'), address)).statusCode).toBe(409);
    const limited = await register(body('mass9@example.com'), address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Try again later.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(890);
    expect(await t.database.db('users').where({ email: 'mass9@example.com' }).first()).toBeUndefined();
    // Another address registers; this one still signs in and asks for mails (their counters are apart).
    expect((await register(body('mass9@example.com'))).statusCode).toBe(201);
    expect(
      (
        await inject(
          t,
          'POST',
          '/api/auth/login',
          undefined,
          { email: 'root@example.com', password: testPassword },
          address,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await inject(t, 'POST', '/api/auth/password/forgot', undefined, { email: 'mass1@example.com' }, address))
        .statusCode,
    ).toBe(202);
  });

  it('refuses another origin on every route of the flow with 403 ORIGIN_NOT_ALLOWED, and lets its own pass', async () => {
    const evil = { origin: 'https://evil.example' };
    for (const [url, body] of [
      ['/api/auth/register', { email: 'mia@example.com', password: 'a long password', accepted_terms: ['tos'] }],
      ['/api/auth/email/verify', { token: 'x' }],
      ['/api/auth/email/resend', { email: 'mia@example.com' }],
      ['/api/auth/password/forgot', { email: 'mia@example.com' }],
      ['/api/auth/password/reset', { token: 'x', password: 'a long password' }],
    ] as const) {
      const response = await inject(t, 'POST', url, undefined, body, { ...freshAddress(), ...evil });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().code).toBe('ORIGIN_NOT_ALLOWED');
    }
    const own = await register(
      { email: 'mia@example.com', password: 'a long password', accepted_terms: ['tos'] },
      { origin: 'http://localhost:8080' },
    );
    expect(own.statusCode).toBe(201);
    await runJobs(t);
    await sink.next();
  });

  it('signs an account in at once when verification is not required: a session cookie, no mail', async () => {
    const app = await appWith({ registration: { ...t.config.registration, emailVerificationRequired: false } });
    const response = await register(
      { email: 'nora@example.com', password: 'a long password', accepted_terms: ['tos'] },
      {},
      '/api/auth/register',
      app,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      status: 'active',
      user: { email: 'nora@example.com', email_verified: false, email_verification_required: false },
    });
    const cookie = sessionCookieOf(response.headers['set-cookie']);
    const session = await app.server.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(JSON.parse(session.payload).session.amr).toEqual(['pwd']);
    expect(await runJobs(t)).toEqual([]);
  });

  it('answers second_factor_required with a pending session when auth.second_factor requires one of the new user', async () => {
    const app = await appWith({
      registration: { ...t.config.registration, emailVerificationRequired: false },
      auth: { ...t.config.auth, secondFactor: 'required' },
    });
    const response = await register(
      { email: 'olga@example.com', password: 'a long password', accepted_terms: ['tos'] },
      {},
      '/api/auth/register',
      app,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'second_factor_required', factors: [] });
    const cookie = sessionCookieOf(response.headers['set-cookie']);
    expect((await app.server.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });

  it('answers 403 REGISTRATION_DISABLED when registration is off, before anything else', async () => {
    const app = await appWith({ registration: { ...t.config.registration, enabled: false } });
    const response = await register(
      { email: 'nobody@example.net', password: '', accepted_terms: [] },
      {},
      '/api/auth/register',
      app,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'REGISTRATION_DISABLED',
      message: 'Self-registration is not enabled on this server.',
    });
  });

  it('answers 503 EMAIL_DISABLED where a mail is needed and email.enabled is false; verifying a token needs none', async () => {
    const app = await appWith({ email: { ...t.config.email, enabled: false } });
    const disabled = {
      code: 'EMAIL_DISABLED',
      message: 'This server does not send e-mail (email.enabled is false), so this action is not available.',
    };
    for (const [url, body] of [
      ['/api/auth/register', { email: 'pia@example.com', password: 'a long password', accepted_terms: ['tos'] }],
      ['/api/auth/email/resend', { email: 'pia@example.com' }],
      ['/api/auth/password/forgot', { email: 'pia@example.com' }],
    ] as const) {
      const response = await register(body, {}, url, app);
      expect(response.statusCode, url).toBe(503);
      expect(response.json()).toEqual(disabled);
    }
    expect((await register({ token: 'A'.repeat(43) }, {}, '/api/auth/email/verify', app)).json()).toEqual(
      INVALID_TOKEN,
    );
    expect(await t.database.db('users').where({ email_normalized: 'pia@example.com' })).toEqual([]);
  });
});
