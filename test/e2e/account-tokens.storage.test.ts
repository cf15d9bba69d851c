import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import { databaseKinds } from '../support/databases.js';
import { testClient, testPasswordHash, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { RelyingParty, type SignInResult } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';

/**
 * The account API seen from a relying party (openid-client, which checks
 * the ID token strictly): profile claims in ID tokens, userinfo and
 * discovery (OIDC Core §5.1, §5.4), and a password change or an account
 * deletion really ending the tokens it must end, at the token endpoint and
 * at userinfo.
 */
describe.each(databaseKinds)('profile claims and the end of tokens, with openid-client, on %s', (kind) => {
  let idp: RunningIdp;
  let web: RelyingParty;
  let rp: oidc.Configuration;

  beforeAll(async () => {
    web = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
      scope: 'openid email profile offline_access',
    });
    idp = await startIdp(kind, {
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
      accountDeletion: { enabled: true, gracePeriodDays: 30 },
      users: [testUser({ sub: 'ada', name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', locale: 'de' })],
      clients: [testClient({ clientId: 'web', redirectUris: [web.redirectUri], skipConsent: true })],
    });
    const now = Date.now();
    for (const sub of ['grace', 'hedy']) {
      await knexUserRepository.insert(idp.database.storage.db, {
        sub,
        managedBy: 'database',
        email: `${sub}@example.com`,
        role: 'user',
        emailVerified: true,
        emailVerificationRequired: false,
        passwordHash: testPasswordHash,
        secondFactorRequired: false,
        name: null,
        givenName: null,
        familyName: null,
        locale: null,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    rp = await web.discover(idp.url);
  });
  afterAll(() => idp.stop());

  async function signedInJar(email: string): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }

  /** One authorization code flow in the jar's session, finished by the relying party. */
  async function authorize(jar: CookieJar, extra: Record<string, string> = {}): Promise<SignInResult> {
    let url = await web.authorizationUrl(extra);
    for (let hop = 0; hop < 10 && url.origin === idp.url; hop += 1) url = locationOf(await jar.fetch(url), url);
    return web.finish(url);
  }

  const api = (jar: CookieJar, method: string, path: string, body?: unknown) =>
    jar.fetch(`${idp.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const refresh = (token: string | undefined) => oidc.refreshTokenGrant(rp, token ?? '');
  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${idp.url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  it('lists the profile claims in discovery', () => {
    expect(rp.serverMetadata().claims_supported).toEqual(
      expect.arrayContaining(['name', 'given_name', 'family_name', 'locale', 'updated_at', 'email', 'email_verified']),
    );
  });

  it("puts a config user's declared profile into the ID token and userinfo under the profile scope, and leaves it out without it", async () => {
    const jar = await signedInJar('ada@example.com');
    const result = await authorize(jar);
    const profile = { name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', locale: 'de' };
    expect(result.claims).toMatchObject(profile);
    expect(typeof result.claims.updated_at).toBe('number');
    expect(result.userinfo).toMatchObject({ sub: 'ada', ...profile, updated_at: result.claims.updated_at });
    const narrow = await authorize(jar, { scope: 'openid email' });
    for (const claim of ['name', 'given_name', 'family_name', 'locale', 'updated_at']) {
      expect(narrow.claims).not.toHaveProperty(claim);
      expect(narrow.userinfo).not.toHaveProperty(claim);
    }
  });

  it('leaves out the claims a user has no value for, and carries a profile edit into the next refreshed ID token', async () => {
    const jar = await signedInJar('grace@example.com');
    const result = await authorize(jar);
    for (const claim of ['name', 'given_name', 'family_name', 'locale'])
      expect(result.claims).not.toHaveProperty(claim);
    expect(result.claims.updated_at).toBe(
      Math.floor(Number((await idp.database.db('users').where({ sub: 'grace' }).first()).updated_at) / 1000),
    );
    expect((await api(jar, 'PATCH', '/api/user', { name: 'Grace Hopper', locale: 'DE' })).status).toBe(200);
    const refreshed = await refresh(result.refreshToken);
    expect(refreshed.claims()).toMatchObject({ sub: 'grace', name: 'Grace Hopper', locale: 'de' });
    expect(await oidc.fetchUserInfo(rp, refreshed.access_token, 'grace')).toMatchObject({
      name: 'Grace Hopper',
      locale: 'de',
    });
  });

  it("a password change ends the other sessions' refresh and access tokens at the token endpoint and userinfo, and keeps the caller's", async () => {
    const other = await signedInJar('hedy@example.com');
    const mine = await signedInJar('hedy@example.com');
    const otherTokens = await authorize(other);
    const myTokens = await authorize(mine);
    expect(await userinfoStatus(otherTokens.accessToken)).toBe(200);

    expect(
      (
        await api(mine, 'POST', '/api/user/password', {
          current_password: password,
          new_password: 'a different passphrase',
        })
      ).status,
    ).toBe(204);

    await expect(refresh(otherTokens.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await userinfoStatus(otherTokens.accessToken)).toBe(401);
    expect((await other.fetch(`${idp.url}/api/auth/session`)).status).toBe(401);
    expect(await userinfoStatus(myTokens.accessToken)).toBe(200);
    const renewed = await refresh(myTokens.refreshToken);
    expect(renewed.claims()?.sub).toBe('hedy');
    expect((await mine.fetch(`${idp.url}/api/auth/session`)).status).toBe(200);
  });

  it('deleting the account ends every session and token of the user at once', async () => {
    const jar = await signedInJar('grace@example.com');
    const tokens = await authorize(jar);
    const elsewhere = await authorize(await signedInJar('grace@example.com'));

    const deleted = await api(jar, 'DELETE', '/api/user', { password });
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as { user: { deleted_at: string } }).user.deleted_at).toMatch(/Z$/);

    for (const result of [tokens, elsewhere]) {
      await expect(refresh(result.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
      expect(await userinfoStatus(result.accessToken)).toBe(401);
    }
    expect((await jar.fetch(`${idp.url}/api/auth/session`)).status).toBe(401);
  });
});
