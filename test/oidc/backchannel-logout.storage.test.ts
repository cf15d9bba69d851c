import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { databaseKinds } from '../support/databases.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { seedUser } from '../support/test-app.js';
import { createLinkTokens } from '../../src/accounts/index.js';
import { systemClock } from '../../src/clock.js';
import { applyConfig } from '../../src/gitops/index.js';
import { CookieJar, locationOf } from '../e2e/support/cookie-jar.js';
import { RelyingParty, type SignInResult } from '../e2e/support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from '../e2e/support/start-idp.js';
import { LogoutReceiver, type ReceivedLogout } from './support/logout-receiver.js';

const password = 'correct horse battery staple';
const event = 'http://schemas.openid.net/event/backchannel-logout';
/** The receiver's wait before idp gives an attempt up: longer than a prompt sign-out may take. */
const receiverTimeoutMs = 1500;

/** A signed-in browser, and the tokens its session got: web without and with offline_access, crm without. */
interface Signed {
  sub: string;
  email: string;
  jar: CookieJar;
  online: SignInResult;
  offline: SignInResult;
  crm: SignInResult;
}

/**
 * OpenID Back-Channel Logout 1.0 and the sign-out's reach (docs/oidc.md,
 * "Sign-out and back-channel logout"): every way a session ends revokes the
 * tokens issued in it (offline_access ones live on, unless the user is gone
 * or changed their credential) and sends each client with a
 * backchannel_logout_uri that got a grant in it exactly one Logout Token,
 * from a background job that retries. Named after the OpenID Foundation's
 * Back-Channel Logout OP test modules where one applies.
 */
describe.each(databaseKinds)('oidcc-backchannel logout on %s', (kind) => {
  let idp: RunningIdp;
  let receiver: LogoutReceiver;
  let webOnline: RelyingParty;
  let webOffline: RelyingParty;
  let crm: RelyingParty;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  const cfgUser = testUser({ sub: 'cfg', email: 'cfg@example.com' });

  beforeAll(async () => {
    receiver = new LogoutReceiver();
    const receiverUrl = await receiver.start();
    const rpPort = await freePort();
    const web = testClient({
      clientId: 'web',
      redirectUris: [`http://127.0.0.1:${rpPort}/callback`],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'email', 'profile', 'offline_access'],
      skipConsent: true,
      backchannelLogoutUri: `${receiverUrl}/web`,
    });
    const crmClient = testClient({
      clientId: 'crm',
      redirectUris: [`http://127.0.0.1:${rpPort}/callback`],
      skipConsent: true,
      idTokenSignedResponseAlg: 'ES256',
      backchannelLogoutUri: `${receiverUrl}/crm`,
    });
    const quiet = testClient({
      clientId: 'quiet',
      redirectUris: [`http://127.0.0.1:${rpPort}/callback`],
      skipConsent: true,
    });
    idp = await startIdp(
      kind,
      {
        users: [testUser({ sub: 'admin', email: 'admin@example.com', role: 'admin' }), cfgUser],
        clients: [web, crmClient, quiet],
        scheduler: { ...testConfig().scheduler, pollIntervalMs: 200 },
        accountDeletion: { enabled: true, gracePeriodDays: 30 },
      },
      { app: { backchannelLogoutTimeoutMs: receiverTimeoutMs } },
    );
    const rp = (clientId: string, secret: string | null, scope: string) =>
      new RelyingParty(rpPort, { clientId, clientSecret: secret, scope });
    webOnline = rp('web', web.clientSecret, 'openid email');
    webOffline = rp('web', web.clientSecret, 'openid offline_access');
    crm = rp('crm', crmClient.clientSecret, 'openid');
    for (const party of [webOnline, webOffline, crm]) await party.discover(idp.url);
    jwks = createRemoteJWKSet(new URL(`${idp.url}/oauth2/jwks`));
  });
  afterAll(async () => {
    await idp.stop();
    await receiver.stop();
  });

  const post = (jar: CookieJar, path: string, body?: unknown, method = 'POST') =>
    jar.fetch(`${idp.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function signIn(email: string): Promise<CookieJar> {
    const jar = new CookieJar();
    expect((await post(jar, '/api/auth/login', { email, password })).status).toBe(200);
    return jar;
  }

  async function tokensOf(jar: CookieJar, party: RelyingParty): Promise<SignInResult> {
    const start = await party.authorizationUrl();
    return party.finish(locationOf(await jar.fetch(start), start));
  }

  /** A fresh database user signed in, with tokens for web (online and offline) and crm from that one session. */
  async function signedIn(options: { sub?: string; email?: string } = {}): Promise<Signed> {
    let sub = options.sub;
    if (sub === undefined) {
      sub = `u-${randomUUID()}`;
      await seedUser(idp, { sub });
    }
    const email = options.email ?? `${sub}@example.com`;
    const jar = await signIn(email);
    return {
      sub,
      email,
      jar,
      online: await tokensOf(jar, webOnline),
      offline: await tokensOf(jar, webOffline),
      crm: await tokensOf(jar, crm),
    };
  }

  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${idp.url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  const webSecret = () => testClient({ clientId: 'web' }).clientSecret ?? '';
  const tokenForm = (form: Record<string, string>) =>
    fetch(`${idp.url}/oauth2/${form.grant_type ? 'token' : 'introspect'}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`web:${webSecret()}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form),
    });
  const introspected = async (token: string) =>
    ((await (await tokenForm({ token })).json()) as { active: boolean }).active;
  const refreshed = async (refreshToken: string) => {
    const response = await tokenForm({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const logoutsOf = (sub: string): ReceivedLogout[] =>
    receiver.received.filter((r) => r.logoutToken !== null && decodeJwt(r.logoutToken).sub === sub);

  /** Waits until `count` requests for `sub` reached the receiver, then a little longer to see that no more come. */
  async function waitForLogouts(sub: string, count: number, withinMs = 8000): Promise<ReceivedLogout[]> {
    const until = Date.now() + withinMs;
    while (logoutsOf(sub).length < count) {
      if (Date.now() > until) throw new Error(`${logoutsOf(sub).length} of ${count} Logout Tokens for ${sub}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 600));
    return logoutsOf(sub);
  }

  /** Back-Channel Logout §2.6: what a receiver must check, with jose against the provider's JWKS. */
  async function verifyLogoutToken(received: ReceivedLogout, clientId: string) {
    expect(received.contentType).toBe('application/x-www-form-urlencoded');
    const { payload, protectedHeader } = await jwtVerify(received.logoutToken ?? '', jwks, {
      issuer: idp.url,
      audience: clientId,
      typ: 'logout+jwt',
      maxTokenAge: 120,
    });
    expect(Object.keys(payload).sort()).toEqual(['aud', 'events', 'exp', 'iat', 'iss', 'jti', 'sid', 'sub']);
    expect(payload.events).toEqual({ [event]: {} });
    expect(payload).not.toHaveProperty('nonce');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(120);
    return { payload, protectedHeader };
  }

  /** The tokens of the session are dead, its offline grant alive or not, and each client got exactly one Logout Token. */
  async function expectEnded(signed: Signed, options: { offlineLivesOn: boolean }) {
    expect(await userinfoStatus(signed.online.accessToken)).toBe(401);
    expect(await introspected(signed.online.accessToken)).toBe(false);
    expect(await userinfoStatus(signed.crm.accessToken)).toBe(401);
    const refresh = await refreshed(signed.offline.refreshToken ?? '');
    if (options.offlineLivesOn) {
      expect(refresh.status).toBe(200);
      expect(await userinfoStatus(signed.offline.accessToken)).toBe(200);
      expect(await introspected(signed.offline.accessToken)).toBe(true);
    } else {
      expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(await userinfoStatus(signed.offline.accessToken)).toBe(401);
    }
    const logouts = await waitForLogouts(signed.sub, 2);
    expect(logouts.map((r) => r.path).sort()).toEqual(['/crm', '/web']);
    const sid = signed.online.claims.sid;
    expect(typeof sid).toBe('string');
    for (const received of logouts) {
      const clientId = received.path.slice(1);
      const { payload, protectedHeader } = await verifyLogoutToken(received, clientId);
      expect(payload).toMatchObject({ sub: signed.sub, sid });
      expect(protectedHeader.alg).toBe(clientId === 'crm' ? 'ES256' : 'RS256');
    }
  }

  it('oidcc-backchannel-logout-discovery-endpoint-verification: discovery lists back-channel logout, and ID tokens carry the session’s sid, the same from code and refresh, never its cookie id', async () => {
    const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
    const signed = await signedIn();
    const sid = signed.online.claims.sid as string;
    expect(sid).toMatch(/^[\w-]{22}$/);
    expect(signed.offline.claims.sid).toBe(sid);
    expect(signed.crm.claims.sid).toBe(sid);
    expect(signed.jar.header()).not.toContain(sid);
    const refresh = await refreshed(signed.offline.refreshToken ?? '');
    expect(decodeJwt(refresh.body.id_token as string).sid).toBe(sid);
    const other = await signedIn();
    expect(other.online.claims.sid).not.toBe(sid);
  });

  describe('oidcc-backchannel-rp-initiated-logout', () => {
    it('ends the session at /oauth2/logout with an id_token_hint: one Logout Token per client, offline grants live on', async () => {
      const signed = await signedIn();
      const started = Date.now();
      const response = await signed.jar.fetch(
        `${idp.url}/oauth2/logout?${new URLSearchParams({ id_token_hint: signed.online.idToken })}`,
      );
      expect(response.status).toBeLessThan(400);
      expect(Date.now() - started).toBeLessThan(receiverTimeoutMs);
      await expectEnded(signed, { offlineLivesOn: true });
    });
  });

  describe('oidcc-backchannel-logouttoken sign-out paths', () => {
    it('POST /api/auth/logout ends the session: its tokens refused, offline ones alive, one Logout Token per client', async () => {
      const signed = await signedIn();
      expect((await post(signed.jar, '/api/auth/logout')).status).toBe(204);
      await expectEnded(signed, { offlineLivesOn: true });
    });

    it('another session of the same user keeps its tokens, and gets no Logout Token', async () => {
      const signed = await signedIn();
      const jar = await signIn(signed.email);
      const second = await tokensOf(jar, webOnline);
      expect(second.claims.sid).not.toBe(signed.online.claims.sid);
      expect((await post(signed.jar, '/api/auth/logout')).status).toBe(204);
      await expectEnded(signed, { offlineLivesOn: true });
      expect(await userinfoStatus(second.accessToken)).toBe(200);
      expect(logoutsOf(signed.sub).every((r) => decodeJwt(r.logoutToken ?? '').sid === signed.online.claims.sid)).toBe(
        true,
      );
    });

    it('a password change ends the other sessions with every grant of theirs, offline ones too', async () => {
      const signed = await signedIn();
      const changer = await signIn(signed.email);
      const kept = await tokensOf(changer, webOnline);
      const response = await post(changer, '/api/user/password', {
        current_password: password,
        new_password: 'a brand new password',
      });
      expect(response.status).toBe(204);
      await expectEnded(signed, { offlineLivesOn: false });
      expect(await userinfoStatus(kept.accessToken)).toBe(200);
    });

    it('a password reset ends every session and grant', async () => {
      const signed = await signedIn();
      const { storage } = idp.database;
      const user = await storage.repositories.users.findBySub(storage.db, signed.sub);
      const token = await createLinkTokens({ tokens: storage.repositories.linkTokens, clock: systemClock }).issue(
        storage.db,
        user!,
        'password_reset',
      );
      const response = await post(new CookieJar(), '/api/auth/password/reset', {
        token,
        password: 'a brand new password',
      });
      expect(response.status).toBe(204);
      await expectEnded(signed, { offlineLivesOn: false });
    });

    it('deleting one’s own account ends every session and grant', async () => {
      const signed = await signedIn();
      expect((await post(signed.jar, '/api/user', { password }, 'DELETE')).status).toBe(200);
      await expectEnded(signed, { offlineLivesOn: false });
    });

    it('an admin deleting the user ends every session and grant', async () => {
      const signed = await signedIn();
      const admin = await signIn('admin@example.com');
      expect((await post(admin, `/api/admin/users/${signed.sub}`, undefined, 'DELETE')).status).toBe(200);
      await expectEnded(signed, { offlineLivesOn: false });
    });

    it('an admin resetting the second factors ends the sessions; offline grants live on', async () => {
      const signed = await signedIn();
      const admin = await signIn('admin@example.com');
      const response = await post(admin, `/api/admin/users/${signed.sub}/second-factors`, undefined, 'DELETE');
      expect(response.status).toBe(204);
      await expectEnded(signed, { offlineLivesOn: true });
    });

    it('apply removing the user ends every session and grant; the Logout Tokens go from job rows', async () => {
      const signed = await signedIn({ sub: 'cfg', email: 'cfg@example.com' });
      const config = { ...idp.config, users: idp.config.users.filter((user) => user.sub !== 'cfg') };
      expect((await applyConfig(idp.database.storage, config)).applied).toBe(true);
      await expectEnded(signed, { offlineLivesOn: false });
    });
  });

  describe('oidcc-backchannel-logouttoken delivery', () => {
    it('retries after a 500: the second attempt delivers a fresh token (new jti)', async () => {
      receiver.plan('/web', 'fail');
      const signed = await signedIn();
      expect((await post(signed.jar, '/api/auth/logout')).status).toBe(204);
      const logouts = await waitForLogouts(signed.sub, 3);
      const web = logouts.filter((r) => r.path === '/web');
      expect(web.map((r) => r.behaviour)).toEqual(['fail', 'ok']);
      const [first, second] = await Promise.all(web.map((r) => verifyLogoutToken(r, 'web')));
      expect(first.payload.jti).not.toBe(second.payload.jti);
      expect(logouts.filter((r) => r.path === '/crm')).toHaveLength(1);
    });

    it('a receiver that hangs does not delay the sign-out; it is cut off and retried', async () => {
      receiver.plan('/crm', 'hang');
      const signed = await signedIn();
      const started = Date.now();
      expect((await post(signed.jar, '/api/auth/logout')).status).toBe(204);
      expect(Date.now() - started).toBeLessThan(receiverTimeoutMs / 2);
      const logouts = await waitForLogouts(signed.sub, 3, receiverTimeoutMs + 8000);
      const crmLogouts = logouts.filter((r) => r.path === '/crm');
      expect(crmLogouts.map((r) => r.behaviour)).toEqual(['hang', 'ok']);
      expect(crmLogouts[1].at - crmLogouts[0].at).toBeGreaterThanOrEqual(receiverTimeoutMs);
      await verifyLogoutToken(crmLogouts[1], 'crm');
    });

    it('sends nothing to a client without a back-channel logout URI', async () => {
      const signed = await signedIn();
      await tokensOf(signed.jar, await quietParty());
      expect((await post(signed.jar, '/api/auth/logout')).status).toBe(204);
      const logouts = await waitForLogouts(signed.sub, 2);
      expect(logouts.map((r) => r.path).sort()).toEqual(['/crm', '/web']);
    });
  });

  it('a job for a client without a back-channel logout URI, or deleted since, succeeds and sends nothing', async () => {
    const before = receiver.received.length;
    const { storage } = idp.database;
    const ids = [
      await idp.app.scheduler.enqueue('backchannel.logout', { clientId: 'quiet', sub: 'someone', sid: 'a-sid' }),
      await idp.app.scheduler.enqueue('backchannel.logout', { clientId: 'deleted', sub: 'someone', sid: 'a-sid' }),
    ];
    const states = async () =>
      Promise.all(ids.map(async (id) => (await storage.repositories.backgroundJobs.findById(storage.db, id))?.state));
    const until = Date.now() + 5000;
    while ((await states()).some((state) => state !== 'succeeded') && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await states()).toEqual(['succeeded', 'succeeded']);
    expect(receiver.received.length).toBe(before);
  });

  async function quietParty(): Promise<RelyingParty> {
    const party = new RelyingParty(webOnline.port, {
      clientId: 'quiet',
      clientSecret: testClient({ clientId: 'quiet' }).clientSecret,
      scope: 'openid',
    });
    await party.discover(idp.url);
    return party;
  }
});
