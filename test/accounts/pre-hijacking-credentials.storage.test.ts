import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { linkToken, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTestApp, inject, seedUser, testPassword, type TestApp } from '../support/test-app.js';
import { browserAt } from '../support/second-factor-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { freshAddress, mailConfig, runJobs } from './mail-app.js';

/**
 * Issue 22 item 1, account pre-hijacking with credentials
 * (docs/http-api.md "Proving an address"): someone registers another
 * person's address with a password while registration asks no
 * verification, and adds a passkey and an authenticator app before the
 * mailbox was proved. When the address's owner proves it (a reset link, or
 * a verification link), those go with the connections: the squatter's
 * passwordless passkey sign-in is refused and the app and its recovery
 * codes are gone. The whole attack runs against the real server, with the
 * mails a real SMTP server receives and the software authenticator.
 */
const origin = 'http://localhost:8080';
const ownerPassword = 'the owner chose this one';

describe.each(databaseKinds)('credentials set up before the address was proved, on %s', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;
  let addresses = 0;
  const browser = () => browserAt(t, `10.9.0.${String(++addresses)}`);

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(
      kind,
      mailConfig(sink.port, {
        registration: { enabled: true, allowedEmailPatterns: [], emailVerificationRequired: false, signupNotice: {} },
      }),
    );
  });
  afterAll(async () => {
    await t.destroy();
    await sink.close();
  });

  /** The token of the one link mailed to `to` by the jobs due now. */
  async function mailedToken(to: string, path: string): Promise<string> {
    const before = sink.messages.length;
    await runJobs(t);
    const mails = sink.messages
      .slice(before)
      .filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0].address === to);
    const linked = mails.filter((m) => (m.text ?? '').includes(`${path}?token=`));
    expect(linked).toHaveLength(1);
    return linkToken(linked[0], path);
  }

  /** A passwordless passkey sign-in from a new browser: the status and the body. */
  async function passwordless(authenticator: SoftwareAuthenticator) {
    const b = browser();
    const options = await b.call('POST', '/api/auth/passkey/options', undefined, {});
    expect(options.statusCode).toBe(200);
    const answer = await b.call('POST', '/api/auth/passkey/verify', undefined, {
      response: authenticator.assert(options.json() as never),
    });
    return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
  }

  /** Signs in with the password and adds a passkey and a confirmed authenticator app. */
  async function setUpCredentials(email: string, password: string) {
    const b = browser();
    const { cookie } = await b.login(email, password);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await b.call('POST', '/api/user/passkeys/options', cookie)).json();
    const created = await b.call('POST', '/api/user/passkeys', cookie, {
      response: authenticator.register(options as never),
      name: 'Laptop',
    });
    expect(created.statusCode).toBe(201);
    const totp = await b.enrolTotp(cookie, Date.now());
    expect(totp.recoveryCodes).toHaveLength(10);
    return { authenticator, passkeyId: (created.json() as { passkey: { id: string } }).passkey.id };
  }

  /** What the account holds besides its password. */
  async function credentialsOf(sub: string) {
    const { db, repositories } = t.app.storage;
    return {
      passkeys: (await repositories.passkeys.listBySub(db, sub)).length,
      totp: (await repositories.totp.find(db, sub)) !== null,
      recoveryCodes: (await repositories.recoveryCodes.countUnused(db, [sub])).get(sub) ?? 0,
    };
  }

  const removals = async (sub: string) =>
    (
      await t.database
        .db('events')
        .whereIn('type', ['passkey.removed', 'second_factor.removed'])
        .where({ subject: sub })
        .orderBy('id')
        .select('type', 'actor', 'detail')
    ).map((e: { type: string; actor: string; detail: unknown }) => [e.type, e.actor, parse(e.detail)]);

  async function register(email: string, password: string): Promise<string> {
    const registered = await inject(t, 'POST', '/api/auth/register', undefined, { email, password }, freshAddress());
    expect(registered.statusCode).toBe(201);
    const user = await t.app.storage.repositories.users.findLiveByEmail(t.app.storage.db, email);
    if (!user) throw new Error(`no account for ${email}`);
    expect(user.emailVerified).toBe(false);
    return user.sub;
  }

  it("the squatter's passkey, authenticator app and recovery codes go when the address's owner resets the password", async () => {
    const sub = await register('victim@example.com', 'squatter password 1');
    const { authenticator, passkeyId } = await setUpCredentials('victim@example.com', 'squatter password 1');
    // Before the owner acts, the passkey alone signs the squatter in.
    expect((await passwordless(authenticator)).status).toBe(200);
    await runJobs(t);

    const forgot = await inject(
      t,
      'POST',
      '/api/auth/password/forgot',
      undefined,
      { email: 'victim@example.com' },
      freshAddress(),
    );
    expect(forgot.statusCode).toBe(202);
    const token = await mailedToken('victim@example.com', '/reset-password');
    const reset = await inject(t, 'POST', '/api/auth/password/reset', undefined, { token, password: ownerPassword });
    expect(reset.statusCode).toBe(204);

    const attempt = await passwordless(authenticator);
    expect(attempt.status).toBe(401);
    expect(attempt.body.code).toBe('INVALID_PASSKEY');
    expect(await credentialsOf(sub)).toEqual({ passkeys: 0, totp: false, recoveryCodes: 0 });
    expect(await removals(sub)).toEqual([
      ['passkey.removed', sub, { passkey_id: passkeyId, reason: 'email_verified' }],
      ['second_factor.removed', sub, { factor: 'totp', reason: 'email_verified' }],
    ]);
    // The owner signs in with the new password and no second factor of the squatter's.
    const signedIn = await browser().login('victim@example.com', ownerPassword);
    expect((signedIn.body as { user: { sub: string } }).user.sub).toBe(sub);
  });

  it('the first verification of the address removes them too', async () => {
    const sub = await register('clicked@example.com', 'squatter password 2');
    const { authenticator } = await setUpCredentials('clicked@example.com', 'squatter password 2');
    await runJobs(t);
    const resend = await inject(
      t,
      'POST',
      '/api/auth/email/resend',
      undefined,
      { email: 'clicked@example.com' },
      freshAddress(),
    );
    expect(resend.statusCode).toBe(202);
    const token = await mailedToken('clicked@example.com', '/verify-email');
    expect((await inject(t, 'POST', '/api/auth/email/verify', undefined, { token })).statusCode).toBe(200);

    expect((await passwordless(authenticator)).status).toBe(401);
    expect(await credentialsOf(sub)).toEqual({ passkeys: 0, totp: false, recoveryCodes: 0 });
  });

  it('a verified account keeps its passkey and authenticator app at a reset', async () => {
    await seedUser(t, { sub: 'kept', email: 'kept@example.com' });
    const { authenticator } = await setUpCredentials('kept@example.com', testPassword);
    const forgot = await inject(
      t,
      'POST',
      '/api/auth/password/forgot',
      undefined,
      { email: 'kept@example.com' },
      freshAddress(),
    );
    expect(forgot.statusCode).toBe(202);
    const token = await mailedToken('kept@example.com', '/reset-password');
    const reset = await inject(t, 'POST', '/api/auth/password/reset', undefined, { token, password: ownerPassword });
    expect(reset.statusCode).toBe(204);

    expect(await credentialsOf('kept')).toEqual({ passkeys: 1, totp: true, recoveryCodes: 10 });
    expect((await passwordless(authenticator)).status).toBe(200);
    expect(await removals('kept')).toEqual([]);
  });
});

/** events.detail is JSON text on SQLite and jsonb on PostgreSQL. */
function parse(detail: unknown): unknown {
  return typeof detail === 'string' ? JSON.parse(detail) : detail;
}
