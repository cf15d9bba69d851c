import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { signJwt, type SigningKey } from '../../src/keys/index.js';
import {
  basic,
  callbackOf,
  insecure,
  issueCode,
  postForm,
  startProvider,
  type Provider,
} from './support/provider-fixture.js';

const redirectUri = 'https://web.example.com/callback';
const logoutUri = 'https://web.example.com/signed-out';
const webSecret = testClient({ clientId: 'web' }).clientSecret!;

/** Userinfo, revocation, introspection and RP-initiated logout, with oauth4webapi where it applies. */
describe.each(databaseKinds)('the bearer and client-authenticated endpoints on %s', (kind) => {
  let provider: Provider;
  const web: oauth.Client = { client_id: 'web' };
  const webAuth = oauth.ClientSecretBasic(webSecret);

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [redirectUri], postLogoutRedirectUris: [logoutUri] }),
        testClient({ clientId: 'other', redirectUris: [redirectUri] }),
      ],
    });
  });
  afterAll(() => provider.stop());

  async function tokens(scopes = ['openid', 'email', 'offline_access']) {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, scopes });
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      web,
      webAuth,
      callbackOf(provider, web, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(provider.as, web, response, { expectedNonce: issued.nonce });
  }

  const currentKey = (): SigningKey => provider.idp.app.deps.protocol.engine.keys.current();
  const claimsFor = (overrides: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: provider.idp.url,
      sub: 'alice',
      aud: provider.idp.url,
      client_id: 'web',
      scope: 'openid email',
      jti: `j${now}${Math.random()}`,
      iat: now,
      exp: now + 60,
      ...overrides,
    };
  };
  const sign = (claims: Record<string, unknown>) =>
    signJwt(provider.idp.app.signingPool, currentKey(), 'at+jwt', claims);
  /** The grant id (gid) of a real access token, to forge others that name it. */
  const grantOf = async () =>
    JSON.parse(Buffer.from((await tokens()).access_token.split('.')[1], 'base64url').toString()).gid as string;
  const userinfoWith = (token: string) =>
    fetch(`${provider.idp.url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } });

  it('answers userinfo for a good token (GET and POST), claims by scope', async () => {
    const t = await tokens();
    const info = await oauth.processUserInfoResponse(
      provider.as,
      web,
      'alice',
      await oauth.userInfoRequest(provider.as, web, t.access_token, insecure),
    );
    expect(info).toEqual({ sub: 'alice', email: 'alice@example.com', email_verified: true });
    const posted = await postForm(provider, '/oauth2/userinfo', { access_token: t.access_token });
    expect(posted).toMatchObject({ status: 200, body: { sub: 'alice' } });
    const narrow = await tokens(['openid']);
    expect(await (await userinfoWith(narrow.access_token)).json()).toEqual({ sub: 'alice' });
  });

  it('challenges a request without a token (RFC 6750 §3.1, no error code)', async () => {
    const response = await fetch(`${provider.idp.url}/oauth2/userinfo`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer realm="${provider.idp.url}"`);
  });

  it.each([
    [
      'an expired token',
      async () =>
        await signJwt(
          provider.idp.app.signingPool,
          currentKey(),
          'at+jwt',
          claimsFor({ exp: Math.floor(Date.now() / 1000) - 1 }),
        ),
    ],
    [
      'a token signed by an unknown key',
      async () => {
        const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const stranger: SigningKey = { ...currentKey(), kid: 'unknown-kid', privateKey, publicKey };
        return await signJwt(provider.idp.app.signingPool, stranger, 'at+jwt', claimsFor());
      },
    ],
    [
      'a known kid with a foreign signature',
      async () => {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return await signJwt(provider.idp.app.signingPool, { ...currentKey(), privateKey }, 'at+jwt', claimsFor());
      },
    ],
    [
      'alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: currentKey().kid })).toString(
          'base64url',
        );
        return `${header}.${Buffer.from(JSON.stringify(claimsFor())).toString('base64url')}.`;
      },
    ],
    [
      'an ID token (typ JWT) used as an access token',
      async () => await signJwt(provider.idp.app.signingPool, currentKey(), 'JWT', claimsFor()),
    ],
    [
      'a token of another issuer',
      async () =>
        await signJwt(
          provider.idp.app.signingPool,
          currentKey(),
          'at+jwt',
          claimsFor({ iss: 'https://evil.example.com' }),
        ),
    ],
    ['garbage', async () => 'not.a.jwt'],
    // RFC 9068 §4 and RFC 8725: what a token signed with our key, for a live grant, must still get right.
    [
      'a token for another audience',
      async () => await sign(claimsFor({ aud: 'https://api.example.com', gid: await grantOf() })),
    ],
    ['a token without aud', async () => await sign(claimsFor({ aud: undefined, gid: await grantOf() }))],
    [
      'a token not valid before a future nbf',
      async () => await sign(claimsFor({ nbf: Math.floor(Date.now() / 1000) + 60, gid: await grantOf() })),
    ],
    [
      "a token whose sub is not its grant's user",
      async () => await sign(claimsFor({ sub: 'bob', gid: await grantOf() })),
    ],
    [
      "a token whose client_id is not its grant's client",
      async () => await sign(claimsFor({ client_id: 'other', gid: await grantOf() })),
    ],
    ['a token whose sub is not a string', async () => await sign(claimsFor({ sub: 42, gid: await grantOf() }))],
    [
      "a grant's token with typ JWT",
      async () => await signJwt(provider.idp.app.signingPool, currentKey(), 'JWT', claimsFor({ gid: await grantOf() })),
    ],
    [
      'HS256 with the public key as the HMAC secret',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'at+jwt', kid: currentKey().kid })).toString(
          'base64url',
        );
        const input = `${header}.${Buffer.from(JSON.stringify(claimsFor({ gid: await grantOf() }))).toString('base64url')}`;
        const secret = currentKey().publicKey.export({ format: 'pem', type: 'spki' });
        return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      },
    ],
    [
      'alg none for a live grant',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: currentKey().kid })).toString(
          'base64url',
        );
        return `${header}.${Buffer.from(JSON.stringify(claimsFor({ gid: await grantOf() }))).toString('base64url')}.`;
      },
    ],
  ])('refuses %s with 401 invalid_token', async (_name, make) => {
    const response = await userinfoWith(await make());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await response.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('accepts a well-formed token of a live grant, and introspects forged grant and client claims as inactive', async () => {
    const gid = await grantOf();
    expect((await userinfoWith(await sign(claimsFor({ gid })))).status).toBe(200);
    const introspect = async (token: string) =>
      (await postForm(provider, '/oauth2/introspect', { token }, { authorization: basic('web', webSecret) })).body;
    expect(await introspect(await sign(claimsFor({ gid })))).toMatchObject({ active: true, sub: 'alice' });
    expect(await introspect(await sign(claimsFor({ gid, sub: 'bob' })))).toEqual({ active: false });
    // Without a grant a token is the client's own (client_credentials): its sub must be the client.
    expect(await introspect(await sign(claimsFor({ sub: 'bob' })))).toEqual({ active: false });
    expect(await introspect(await sign(claimsFor({ sub: 'web' })))).toMatchObject({ active: true, sub: 'web' });
  });

  it('answers 403 insufficient_scope to a token without openid', async () => {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, scopes: ['email'] });
    const form = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectUri,
      code_verifier: issued.verifier,
    };
    const granted = await postForm(provider, '/oauth2/token', form, { authorization: basic('web', webSecret) });
    expect(granted.body.id_token).toBeUndefined();
    const response = await userinfoWith(granted.body.access_token as string);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  it('revokes an access token (RFC 7009) and introspection then says inactive', async () => {
    const t = await tokens();
    const active = await oauth.processIntrospectionResponse(
      provider.as,
      web,
      await oauth.introspectionRequest(provider.as, web, webAuth, t.access_token, insecure),
    );
    expect(active).toMatchObject({
      active: true,
      sub: 'alice',
      client_id: 'web',
      scope: 'openid email offline_access',
      token_type: 'Bearer',
    });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(provider.as, web, webAuth, t.access_token, insecure),
    );
    expect((await userinfoWith(t.access_token)).status).toBe(401);
    const after = await oauth.processIntrospectionResponse(
      provider.as,
      web,
      await oauth.introspectionRequest(provider.as, web, webAuth, t.access_token, insecure),
    );
    expect(after).toEqual({ active: false });
    // The refresh token of the same grant still works: only that access token was revoked.
    expect((await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, t.refresh_token!, insecure)).status).toBe(
      200,
    );
  });

  it('revokes a refresh token with its grant, and answers 200 to unknown tokens', async () => {
    const t = await tokens();
    const refresh = await oauth.processIntrospectionResponse(
      provider.as,
      web,
      await oauth.introspectionRequest(provider.as, web, webAuth, t.refresh_token!, insecure),
    );
    expect(refresh).toMatchObject({ active: true, token_type: 'refresh_token', client_id: 'web' });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(provider.as, web, webAuth, t.refresh_token!, insecure),
    );
    expect((await userinfoWith(t.access_token)).status).toBe(401);
    expect((await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, t.refresh_token!, insecure)).status).toBe(
      400,
    );
    const unknown = await postForm(
      provider,
      '/oauth2/revoke',
      { token: 'never-issued' },
      { authorization: basic('web', webSecret) },
    );
    expect(unknown.status).toBe(200);
  });

  it("does not describe or revoke another client's refresh token", async () => {
    const t = await tokens();
    const otherAuth = { authorization: basic('other', testClient({ clientId: 'other' }).clientSecret!) };
    expect((await postForm(provider, '/oauth2/introspect', { token: t.refresh_token! }, otherAuth)).body).toEqual({
      active: false,
    });
    expect((await postForm(provider, '/oauth2/revoke', { token: t.refresh_token! }, otherAuth)).status).toBe(200);
    expect((await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, t.refresh_token!, insecure)).status).toBe(
      200,
    );
  });

  it('requires client authentication at revoke and introspect', async () => {
    for (const path of ['/oauth2/revoke', '/oauth2/introspect']) {
      const response = await postForm(provider, path, { token: 'x' }, { authorization: basic('web', 'wrong') });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Basic');
      expect((await postForm(provider, path, {})).body.error).toBe('invalid_request');
    }
  });

  it('logs out to a registered post_logout_redirect_uri with state, and refuses an unregistered one', async () => {
    const t = await tokens();
    const url = new URL(`${provider.idp.url}/oauth2/logout`);
    url.search = new URLSearchParams({
      id_token_hint: t.id_token!,
      post_logout_redirect_uri: logoutUri,
      state: 's1',
    }).toString();
    const ok = await fetch(url, { redirect: 'manual' });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe(`${logoutUri}?state=s1`);
    url.searchParams.set('post_logout_redirect_uri', 'https://evil.example.com/');
    const refused = await fetch(url, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    const page = await fetch(`${provider.idp.url}/oauth2/logout`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed out');
  });
});
