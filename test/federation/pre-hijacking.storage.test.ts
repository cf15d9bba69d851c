import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, RegistrationConfig } from '../../src/config/types.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds, type DatabaseKind } from '../support/databases.js';
import { linkToken, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { seedUser } from '../support/test-app.js';
import { CookieJar } from '../e2e/support/cookie-jar.js';
import { startFederationFixture, type FederationFixture } from './support/federation-fixture.js';
import { authorizePath, walkUpstream } from './support/walk-upstream.js';

/**
 * Issue 22 item 1, account pre-hijacking (docs/http-api.md "Linking
 * rules" and "Proving an address"): an attacker whose upstream account claims the victim's address,
 * unverified, must not end up holding a way into the account the victim
 * later registers, verifies or recovers. Each test is the whole attack
 * against the real idp and real upstreams: the attacker's upstream sign-in,
 * the victim's registration, verification or reset through the mails a real
 * SMTP server receives, and the attacker's next sign-in, refused.
 */
const victimPassword = 'the victim chose this one';

async function startWithMail(
  kind: DatabaseKind,
  registration: Partial<RegistrationConfig> = {},
): Promise<{ f: FederationFixture; sink: SmtpSink }> {
  const sink = await startSmtpSink();
  const base = testConfig();
  const mail: Partial<Config> = {
    email: {
      enabled: true,
      from: 'Example ID <id@example.com>',
      smtp: { host: '127.0.0.1', port: sink.port, secure: false, user: null, password: null },
    },
    // Mail jobs run when the test says so (deliver), not on a timer.
    scheduler: { ...base.scheduler, enabled: false, backgroundRetryDelayMs: 0 },
  };
  return { f: await startFederationFixture(kind, registration, mail), sink };
}

/** The requests a person makes on the pages, with the page's Origin. */
function person(f: FederationFixture, jar = new CookieJar()) {
  const post = (path: string, body: unknown) =>
    jar.fetch(`${f.idp.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: f.idp.url },
      body: JSON.stringify(body),
    });
  return { jar, post };
}

/** Runs the due mail jobs; the messages they sent. */
async function deliver(f: FederationFixture, sink: SmtpSink) {
  const before = sink.messages.length;
  while (await f.idp.app.scheduler.worker.runNext());
  return sink.messages.slice(before);
}

async function mailedToken(f: FederationFixture, sink: SmtpSink, to: string, path: string): Promise<string> {
  const mails = await deliver(f, sink);
  expect(mails.map((m) => m.to && !Array.isArray(m.to) && m.to.value[0].address)).toEqual([to]);
  return linkToken(mails[0], path);
}

/** The attacker's sign-in through `provider` as the upstream account the test chose: where it lands, and whether it holds a session. */
async function attackerSignsIn(f: FederationFixture, provider: string) {
  const jar = new CookieJar();
  const landed = await walkUpstream(jar, f.idp.url, authorizePath(provider, { return_to: '/account' }));
  const session = await jar.fetch(`${f.idp.url}/api/auth/session`);
  return { landed: [landed.pathname, landed.searchParams.get('error')], session: session.status };
}

describe.each(databaseKinds)('account pre-hijacking through upstream sign-in on %s', (kind) => {
  let f: FederationFixture;
  let sink: SmtpSink;
  beforeAll(async () => {
    ({ f, sink } = await startWithMail(kind));
  });
  afterAll(async () => {
    await f.stop();
    await sink.close();
  });

  /** The attacker's account claiming victim@example.com at the GitHub-shaped upstream, or at the OpenID one behind corp. */
  const asMallory = (provider: string) => {
    if (provider === 'github') f.github.signInAs('mallory');
    else f.oidc.signInAs('mallory');
  };

  it("an upstream that claims the victim's address unverified creates nothing; the victim registers, and the attacker is refused", async () => {
    const before = [await f.users(), await f.connections()];
    for (const provider of ['github', 'corp']) {
      asMallory(provider);
      expect(await attackerSignsIn(f, provider), provider).toEqual({
        landed: ['/login', 'EMAIL_NOT_VERIFIED'],
        session: 401,
      });
    }
    expect([await f.users(), await f.connections()]).toEqual(before);
    expect(await deliver(f, sink)).toEqual([]);

    const victim = person(f);
    const registered = await victim.post('/api/auth/register', {
      email: 'victim@example.com',
      password: victimPassword,
    });
    expect(registered.status).toBe(201);
    const token = await mailedToken(f, sink, 'victim@example.com', '/verify-email');
    expect((await victim.post('/api/auth/email/verify', { token })).status).toBe(200);

    for (const provider of ['github', 'corp']) {
      asMallory(provider);
      expect(await attackerSignsIn(f, provider), provider).toEqual({
        landed: ['/login', 'LINK_REQUIRED'],
        session: 401,
      });
    }
    const [account] = (await f.users()).filter((u) => u.email === 'victim@example.com');
    expect((await f.connections()).filter((c) => c.sub === account.sub)).toEqual([]);
  });

  it('an account that holds a connection made before its address was proved loses it at the first verification or reset', async () => {
    // Accounts as the upstream sign-up made them before this rule: unverified, no password, the attacker's connection.
    for (const [sub, subject] of [
      ['earlier', '109'],
      ['earliest', '110'],
    ]) {
      await seedUser(f.idp, { sub, emailVerified: false, emailVerificationRequired: true, passwordHash: null });
      await f.idp.database.storage.repositories.connections.insert(f.idp.database.storage.db, {
        providerId: 'github',
        subject,
        sub,
        email: `${sub}@example.com`,
        linkedAt: Date.now(),
      });
    }

    // One victim confirms the address with a fresh verification mail, the other resets the password.
    const first = person(f);
    expect((await first.post('/api/auth/email/resend', { email: 'earlier@example.com' })).status).toBe(202);
    const verification = await mailedToken(f, sink, 'earlier@example.com', '/verify-email');
    expect((await first.post('/api/auth/email/verify', { token: verification })).status).toBe(200);
    const second = person(f);
    expect((await second.post('/api/auth/password/forgot', { email: 'earliest@example.com' })).status).toBe(202);
    const reset = await mailedToken(f, sink, 'earliest@example.com', '/reset-password');
    expect((await second.post('/api/auth/password/reset', { token: reset, password: victimPassword })).status).toBe(
      204,
    );

    for (const account of ['mallory-earlier', 'mallory-earliest']) {
      f.github.signInAs(account);
      expect(await attackerSignsIn(f, 'github'), account).toEqual({
        landed: ['/login', 'LINK_REQUIRED'],
        session: 401,
      });
    }
    expect((await f.connections()).filter((c) => ['earlier', 'earliest'].includes(c.sub))).toEqual([]);
    const unlinked = await f.idp.database
      .db('events')
      .where({ type: 'provider.unlinked' })
      .whereIn('subject', ['earlier', 'earliest'])
      .orderBy('id')
      .select('subject', 'detail');
    expect(unlinked.map((e: { subject: string; detail: unknown }) => [e.subject, parse(e.detail)])).toEqual([
      ['earlier', { provider: 'github', reason: 'email_verified' }],
      ['earliest', { provider: 'github', reason: 'email_verified' }],
    ]);
  });
});

describe.each(databaseKinds)(
  'account pre-hijacking with a password, without verification at sign-up, on %s',
  (kind) => {
    let f: FederationFixture;
    let sink: SmtpSink;
    beforeAll(async () => {
      ({ f, sink } = await startWithMail(kind, { emailVerificationRequired: false }));
    });
    afterAll(async () => {
      await f.stop();
      await sink.close();
    });

    it("the squatter's connection goes when the address's owner resets the password; a verified account keeps its own", async () => {
      // The attacker registers the victim's address (signed in at once: no verification asked) and links their GitHub account.
      const attacker = person(f);
      const squatted = await attacker.post('/api/auth/register', {
        email: 'victim@example.com',
        password: 'attacker 12345',
      });
      expect(squatted.status).toBe(201);
      f.github.signInAs('outsider');
      const linked = await walkUpstream(
        attacker.jar,
        f.idp.url,
        authorizePath('github', { intent: 'link', return_to: '/account' }),
      );
      expect(linked.pathname).toBe('/account');
      const [account] = (await f.users()).filter((u) => u.email === 'victim@example.com');
      expect(await f.connections()).toContainEqual({ provider_id: 'github', subject: '105', sub: account.sub });

      // alice, verified, links her own GitHub account and later forgets her password too.
      const alice = person(f);
      await f.signInWithPassword(alice.jar, 'alice@example.com');
      f.github.signInAs('alice-gh');
      await walkUpstream(alice.jar, f.idp.url, authorizePath('github', { intent: 'link', return_to: '/account' }));

      for (const email of ['victim@example.com', 'alice@example.com']) {
        const owner = person(f);
        expect((await owner.post('/api/auth/password/forgot', { email })).status).toBe(202);
        const token = await mailedToken(f, sink, email, '/reset-password');
        expect((await owner.post('/api/auth/password/reset', { token, password: victimPassword })).status).toBe(204);
      }

      // The attacker's GitHub account no longer reaches the victim's account; a new account for its address is not allowed here.
      f.github.signInAs('outsider');
      expect(await attackerSignsIn(f, 'github')).toEqual({ landed: ['/login', 'EMAIL_NOT_ALLOWED'], session: 401 });
      expect((await f.connections()).filter((c) => c.sub === account.sub)).toEqual([]);

      f.github.signInAs('alice-gh');
      const returning = new CookieJar();
      await walkUpstream(returning, f.idp.url, authorizePath('github'));
      const { user } = (await f.session(returning)) as { user: { sub: string } };
      expect(user.sub).toBe('alice');
    });
  },
);

/** events.detail is JSON text on SQLite and jsonb on PostgreSQL. */
function parse(detail: unknown): unknown {
  return typeof detail === 'string' ? JSON.parse(detail) : detail;
}
