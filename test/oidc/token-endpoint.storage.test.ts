import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { knexAuthorizationCodeRepository } from '../../src/storage/knex/authorization-codes.js';
import { knexTokenRepository } from '../../src/storage/knex/tokens.js';
import { hashOpaqueToken } from '../../src/oidc/tokens/opaque-token.js';
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
const svcSecret = 'svc-secret-0123456789abcdef-0123456789';
const oddSecret = 'a+b:c%d é/=&?0123456789abcdef';

/**
 * POST /oauth2/token with oauth4webapi as the relying party: every grant,
 * client authentication and the RFC 6749 §5.2 errors, on both databases.
 */
describe.each(databaseKinds)('the token endpoint on %s', (kind) => {
  let provider: Provider;
  const web: oauth.Client = { client_id: 'web' };
  const webAuth = oauth.ClientSecretBasic(testClient({ clientId: 'web' }).clientSecret!);
  const svc: oauth.Client = { client_id: 'svc' };

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [redirectUri] }),
        testClient({ clientId: 'other', redirectUris: [redirectUri] }),
        testClient({ clientId: 'post', tokenEndpointAuthMethod: 'client_secret_post', redirectUris: [redirectUri] }),
        testClient({
          clientId: 'spa',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          redirectUris: [redirectUri],
        }),
        testClient({
          clientId: 'svc',
          clientSecret: svcSecret,
          tokenEndpointAuthMethodPinned: true,
          grantTypes: ['client_credentials'],
          scopes: ['openid', 'api:read', 'api:write'],
        }),
        testClient({
          clientId: 'odd id',
          clientSecret: oddSecret,
          grantTypes: ['client_credentials'],
          scopes: ['api:read'],
        }),
      ],
    });
  });
  afterAll(() => provider.stop());

  async function codeTokens(overrides: Parameters<typeof issueCode>[1] = { clientId: 'web', redirectUri }) {
    const issued = await issueCode(provider, overrides);
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      web,
      webAuth,
      callbackOf(provider, web, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    return { issued, response };
  }

  it('publishes metadata oauth4webapi accepts, with exactly what is supported', () => {
    expect(provider.as).toMatchObject({
      issuer: provider.idp.url,
      token_endpoint: `${provider.idp.url}/oauth2/token`,
      jwks_uri: `${provider.idp.url}/oauth2/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      device_authorization_endpoint: `${provider.idp.url}/oauth2/device_authorization`,
      id_token_signing_alg_values_supported: ['RS256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('issues an RFC 9068 access token for client_credentials, verifiable with the JWKS', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      provider.as,
      svc,
      oauth.ClientSecretBasic(svcSecret),
      { scope: 'api:read' },
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const tokens = await oauth.processClientCredentialsResponse(provider.as, svc, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'api:read' });
    const jwks = createRemoteJWKSet(new URL(provider.as.jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.idp.url,
      typ: 'at+jwt',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: 'svc', client_id: 'svc', aud: provider.idp.url, scope: 'api:read' });
    expect(typeof payload.jti).toBe('string');
  });

  it("limits client_credentials to the client's non-OpenID scopes", async () => {
    const all = await oauth.processClientCredentialsResponse(
      provider.as,
      svc,
      await oauth.clientCredentialsGrantRequest(provider.as, svc, oauth.ClientSecretBasic(svcSecret), {}, insecure),
    );
    expect(all.scope).toBe('api:read api:write');
    const refused = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'openid' },
      { authorization: basic('svc', svcSecret) },
    );
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('decodes form-urlencoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const ok = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      { authorization: basic('odd id', oddSecret) },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.scope).toBe('api:read');
  });

  it.each([
    ['a wrong secret with Basic', { authorization: basic('svc', 'wrong') }, {}, true],
    ['an unknown client with Basic', { authorization: basic('nobody', 'x') }, {}, true],
    ['a malformed Basic header', { authorization: 'Basic !!!' }, {}, true],
    ['client_secret_post by a client pinned to Basic', {}, { client_id: 'svc', client_secret: svcSecret }, false],
    ['no authentication by a confidential client', {}, { client_id: 'svc' }, false],
    ['no client at all', {}, {}, false],
  ])('answers 401 invalid_client to %s', async (_name, headers, form, challenged) => {
    const response = await postForm(provider, '/oauth2/token', { grant_type: 'client_credentials', ...form }, headers);
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_client');
    expect(response.headers.get('www-authenticate')).toBe(challenged ? 'Basic realm="idp", charset="UTF-8"' : null);
  });

  it.each([
    ['a grant the client may not use', 'web', { grant_type: 'client_credentials' }, 'unauthorized_client'],
    ['an unknown grant type', 'web', { grant_type: 'password' }, 'unsupported_grant_type'],
    ['no grant_type', 'web', {}, 'invalid_request'],
    ['a repeated parameter', 'svc', { grant_type: ['client_credentials', 'client_credentials'] }, 'invalid_request'],
    ['a missing code', 'web', { grant_type: 'authorization_code', redirect_uri: redirectUri }, 'invalid_request'],
  ])('refuses %s', async (_name, clientId, form, error) => {
    const secret = clientId === 'svc' ? svcSecret : testClient({ clientId }).clientSecret!;
    const response = await postForm(provider, '/oauth2/token', form, { authorization: basic(clientId, secret) });
    expect(response).toMatchObject({ status: 400, body: { error } });
  });

  it('redeems a code once: ID token (nonce, at_hash, auth_time, amr, email), access and refresh token', async () => {
    const { issued, response } = await codeTokens();
    const tokens = await oauth.processAuthorizationCodeResponse(provider.as, web, response, {
      expectedNonce: issued.nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({
      iss: provider.idp.url,
      sub: 'alice',
      aud: 'web',
      nonce: issued.nonce,
      email: 'alice@example.com',
      email_verified: true,
    });
    expect(claims.auth_time).toBe(Math.floor(issued.record.authTime / 1000));
    // RFC 8176: the methods of the sign-in the code was issued in.
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(typeof tokens.refresh_token).toBe('string');
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
  });

  it('fails a replayed code and revokes what the first redemption issued', async () => {
    const { issued, response } = await codeTokens();
    const tokens = await oauth.processAuthorizationCodeResponse(provider.as, web, response, {
      expectedNonce: issued.nonce,
    });
    const replay = await oauth.authorizationCodeGrantRequest(
      provider.as,
      web,
      webAuth,
      callbackOf(provider, web, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(provider.as, web, replay)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const refresh = await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(provider.as, web, refresh)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const userinfo = await oauth.userInfoRequest(provider.as, web, tokens.access_token, insecure);
    expect(userinfo.status).toBe(401);
  });

  it('leaves a revoked grant behind when a replay overtakes the first redemption', async () => {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri });
    // The first redemption has consumed the code but not yet stored its grant.
    await knexAuthorizationCodeRepository.consume(provider.idp.database.tx, issued.record.codeHash, Date.now());
    const replay = await oauth.authorizationCodeGrantRequest(
      provider.as,
      web,
      webAuth,
      callbackOf(provider, web, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(provider.as, web, replay)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const grant = await knexTokenRepository.findGrant(provider.idp.database.tx, issued.record.grantId);
    expect(grant?.revokedAt).not.toBeNull();
    // So the first redemption, storing its grant now, finds it taken and fails.
    expect(await knexTokenRepository.insertGrant(provider.idp.database.tx, { ...grant!, revokedAt: null })).toBe(false);
  });

  it.each([
    ['a code issued to another client', { clientId: 'other', redirectUri }, {}],
    ['an expired code', { clientId: 'web', redirectUri, expiresAt: Date.now() - 1 }, {}],
    [
      "a redirect_uri that differs from the request's",
      { clientId: 'web', redirectUri: 'https://web.example.com/other' },
      {},
    ],
    ['a wrong PKCE verifier', { clientId: 'web', redirectUri }, { code_verifier: 'x'.repeat(43) }],
    ['a missing PKCE verifier', { clientId: 'web', redirectUri }, { code_verifier: undefined }],
    ['an unknown code', { clientId: 'web', redirectUri }, { code: 'not-a-code' }],
    [
      'a code without PKCE for a client that requires it',
      { clientId: 'web', redirectUri, codeChallenge: null, codeChallengeMethod: null },
      { code_verifier: undefined },
    ],
    [
      'a verifier for a code issued without PKCE (downgrade)',
      { clientId: 'web', redirectUri, codeChallenge: null, codeChallengeMethod: null },
      {},
    ],
  ])('answers invalid_grant to %s', async (_name, record, change) => {
    const issued = await issueCode(provider, record);
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectUri,
      code_verifier: issued.verifier,
    };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) Reflect.deleteProperty(form, name);
      else form[name] = value;
    }
    const response = await postForm(provider, '/oauth2/token', form, {
      authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!),
    });
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it("refuses a public client's code issued without PKCE", async () => {
    const issued = await issueCode(provider, {
      clientId: 'spa',
      redirectUri,
      codeChallenge: null,
      codeChallengeMethod: null,
    });
    const response = await postForm(provider, '/oauth2/token', {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectUri,
      client_id: 'spa',
    });
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('lets a public client redeem with PKCE and no secret', async () => {
    const spa: oauth.Client = { client_id: 'spa', token_endpoint_auth_method: 'none' };
    const issued = await issueCode(provider, { clientId: 'spa', redirectUri, scopes: ['openid'] });
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      spa,
      oauth.None(),
      callbackOf(provider, spa, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(provider.as, spa, response, {
      expectedNonce: issued.nonce,
    });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('authenticates client_secret_post clients', async () => {
    const post: oauth.Client = { client_id: 'post' };
    const issued = await issueCode(provider, { clientId: 'post', redirectUri });
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      post,
      oauth.ClientSecretPost(testClient({ clientId: 'post' }).clientSecret!),
      callbackOf(provider, post, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    expect(
      (await oauth.processAuthorizationCodeResponse(provider.as, post, response, { expectedNonce: issued.nonce }))
        .access_token,
    ).toBeTruthy();
  });

  it('rotates refresh tokens and revokes the family when a rotated one is reused', async () => {
    const { issued, response } = await codeTokens();
    const first = await oauth.processAuthorizationCodeResponse(provider.as, web, response, {
      expectedNonce: issued.nonce,
    });
    const second = await oauth.processRefreshTokenResponse(
      provider.as,
      web,
      await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, first.refresh_token!, insecure),
    );
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // A refreshed ID token still names the original sign-in: its time and its methods.
    const refreshed = oauth.getValidatedIdTokenClaims(second)!;
    expect({ amr: refreshed.amr, auth_time: refreshed.auth_time }).toEqual({
      amr: ['pwd', 'otp'],
      auth_time: Math.floor(issued.record.authTime / 1000),
    });
    const narrowed = await oauth.processRefreshTokenResponse(
      provider.as,
      web,
      await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, second.refresh_token!, {
        ...insecure,
        additionalParameters: { scope: 'openid offline_access' },
      }),
    );
    expect(narrowed.scope).toBe('openid offline_access');
    // Reuse of the first (rotated) token: refused, and the newest one dies with it.
    const reuse = await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, first.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(provider.as, web, reuse)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const newest = await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, narrowed.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(provider.as, web, newest)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await oauth.userInfoRequest(provider.as, web, narrowed.access_token, insecure)).status).toBe(401);
  });

  it("says why a refresh token is refused: unknown, another client's, revoked, expired, already used (with or without a scope)", async () => {
    const webBasic = { authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!) };
    const refresh = (token: string, extra: Record<string, string> = {}, headers = webBasic) =>
      postForm(provider, '/oauth2/token', { grant_type: 'refresh_token', refresh_token: token, ...extra }, headers);
    const mint = async () => {
      const { issued, response } = await codeTokens();
      return (await oauth.processAuthorizationCodeResponse(provider.as, web, response, { expectedNonce: issued.nonce }))
        .refresh_token!;
    };
    const refused = (description: string) => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: description },
    });
    expect(await refresh('no-such-token')).toMatchObject(refused('The refresh token is invalid.'));
    const others = await mint();
    expect(
      await refresh(others, {}, { authorization: basic('other', testClient({ clientId: 'other' }).clientSecret!) }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await refresh(others)).toMatchObject({ status: 200 });
    const revoked = await mint();
    await postForm(provider, '/oauth2/revoke', { token: revoked }, webBasic);
    expect(await refresh(revoked)).toMatchObject(refused('The refresh token has been revoked.'));
    expect(await refresh(revoked, { scope: 'openid' })).toMatchObject(refused('The refresh token has been revoked.'));
    const expired = await mint();
    await provider.idp.database
      .db('refresh_tokens')
      .where({ token_hash: hashOpaqueToken(expired) })
      .update({ expires_at: Date.now() - 1000 });
    expect(await refresh(expired)).toMatchObject(refused('The refresh token has expired.'));
    const used = await mint();
    expect(await refresh(used)).toMatchObject({ status: 200 });
    expect(await refresh(used, { scope: 'openid' })).toMatchObject(
      refused('The refresh token has already been used; the grant has been revoked.'),
    );
  });

  it('refuses to widen the scope on refresh, and gives no refresh token without offline_access', async () => {
    const { issued, response } = await codeTokens({
      clientId: 'web',
      redirectUri,
      scopes: ['openid', 'offline_access'],
    });
    const tokens = await oauth.processAuthorizationCodeResponse(provider.as, web, response, {
      expectedNonce: issued.nonce,
    });
    const wider = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'openid email' },
      { authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!) },
    );
    expect(wider).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    // An invalid_scope answer leaves the token usable: it is read, not claimed, before the scope step.
    const after = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'openid' },
      { authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!) },
    );
    expect(after).toMatchObject({ status: 200, body: { scope: 'openid' } });
    const noOffline = await codeTokens({ clientId: 'web', redirectUri, scopes: ['openid'] });
    const plain = await oauth.processAuthorizationCodeResponse(provider.as, web, noOffline.response, {
      expectedNonce: noOffline.issued.nonce,
    });
    expect(plain.refresh_token).toBeUndefined();
  });
});
