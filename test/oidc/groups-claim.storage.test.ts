import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import type { MembershipKey } from '../../src/storage/repositories.js';
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
const webSecret = testClient({ clientId: 'web' }).clientSecret!;
const svcSecret = testClient({ clientId: 'svc' }).clientSecret!;

/** The payload of a JWT, unverified (the tokens come from the server under test, which verifies its own). */
const payloadOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

/**
 * The groups scope and claim (docs/oidc.md, "Claims"): the user's groups
 * from every source, sorted, in the ID token, the JWT access token and
 * userinfo when the scope was granted, and nowhere without it.
 */
describe.each(databaseKinds)('the groups claim on %s', (kind) => {
  let provider: Provider;
  const web: oauth.Client = { client_id: 'web' };
  const webAuth = oauth.ClientSecretBasic(webSecret);

  const member = (groupId: string, sub: string, source: MembershipKey['source'] = 'config'): MembershipKey => ({
    groupId,
    sub,
    source,
    provider: source === 'upstream' ? 'corp' : null,
  });
  const repository = () => provider.idp.app.storage.repositories.groups;
  const tx = () => provider.idp.database.tx;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'carol' })],
      clients: [
        testClient({
          clientId: 'web',
          redirectUris: [redirectUri],
          scopes: ['openid', 'profile', 'email', 'offline_access', 'groups'],
        }),
        testClient({
          clientId: 'svc',
          grantTypes: ['client_credentials'],
          redirectUris: [],
          scopes: ['api:read', 'groups'],
        }),
      ],
    });
    const now = Date.now();
    for (const [id, name] of [
      ['sre', 'Site reliability'],
      ['dev', 'Developers'],
      ['ops', 'Operations'],
    ])
      await repository().save(tx(), { id, name, description: null, upstream: [], createdAt: now, updatedAt: now });
    // alice is in dev twice (the file and an upstream): one entry in the claim.
    await repository().addMemberships(
      tx(),
      [member('sre', 'alice'), member('dev', 'alice'), member('dev', 'alice', 'upstream')],
      now,
    );
  });
  afterAll(() => provider.stop());

  async function tokens(sub: string, scopes: string[]) {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, sub, scopes });
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
  const userinfo = async (accessToken: string) =>
    oauth.processUserInfoResponse(
      provider.as,
      web,
      oauth.skipSubjectCheck,
      await oauth.userInfoRequest(provider.as, web, accessToken, insecure),
    );
  const refresh = async (refreshToken: string, scope?: string) =>
    oauth.processRefreshTokenResponse(
      provider.as,
      web,
      await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, refreshToken, {
        ...insecure,
        ...(scope ? { additionalParameters: { scope } } : {}),
      }),
    );

  it('lists the groups scope and the groups claim in discovery', () => {
    expect(provider.as.scopes_supported).toContain('groups');
    expect(provider.as.claims_supported).toContain('groups');
  });

  it('puts the sorted groups into the ID token, the access token and userinfo, and keeps them on refresh', async () => {
    const result = await tokens('alice', ['openid', 'groups', 'offline_access']);
    expect(result.scope).toBe('openid groups offline_access');
    expect(oauth.getValidatedIdTokenClaims(result)!.groups).toEqual(['dev', 'sre']);
    expect(payloadOf(result.access_token).groups).toEqual(['dev', 'sre']);
    expect(await userinfo(result.access_token)).toEqual({ sub: 'alice', groups: ['dev', 'sre'] });

    const refreshed = await refresh(result.refresh_token!);
    expect(oauth.getValidatedIdTokenClaims(refreshed)!.groups).toEqual(['dev', 'sre']);
    expect(payloadOf(refreshed.access_token).groups).toEqual(['dev', 'sre']);

    // A refresh that narrows the scope away from groups carries none.
    const narrowed = await refresh(refreshed.refresh_token!, 'openid offline_access');
    expect(oauth.getValidatedIdTokenClaims(narrowed)).not.toHaveProperty('groups');
    expect(payloadOf(narrowed.access_token)).not.toHaveProperty('groups');
    expect(await userinfo(narrowed.access_token)).toEqual({ sub: 'alice' });
  });

  it('sends no groups without the scope', async () => {
    const result = await tokens('alice', ['openid', 'email']);
    expect(oauth.getValidatedIdTokenClaims(result)).not.toHaveProperty('groups');
    expect(payloadOf(result.access_token)).not.toHaveProperty('groups');
    expect(await userinfo(result.access_token)).toEqual({
      sub: 'alice',
      email: 'alice@example.com',
      email_verified: true,
    });
  });

  it('sends an empty list for a user in no group', async () => {
    const result = await tokens('carol', ['openid', 'groups']);
    expect(oauth.getValidatedIdTokenClaims(result)!.groups).toEqual([]);
    expect(payloadOf(result.access_token).groups).toEqual([]);
    expect(await userinfo(result.access_token)).toEqual({ sub: 'carol', groups: [] });
  });

  it('shows a membership changed through the repository at the next userinfo call (the cache generation moves)', async () => {
    const result = await tokens('carol', ['openid', 'groups']);
    expect((await userinfo(result.access_token)).groups).toEqual([]);
    await repository().addMemberships(tx(), [member('ops', 'carol', 'database')], Date.now());
    expect((await userinfo(result.access_token)).groups).toEqual(['ops']);
    await repository().addMemberships(tx(), [member('dev', 'carol', 'database')], Date.now());
    expect((await userinfo(result.access_token)).groups).toEqual(['dev', 'ops']);
    await repository().removeMemberships(tx(), [member('ops', 'carol', 'database')]);
    expect((await userinfo(result.access_token)).groups).toEqual(['dev']);
    await repository().removeMemberships(tx(), [member('dev', 'carol', 'database')]);
    expect((await userinfo(result.access_token)).groups).toEqual([]);
  });

  it('gives client_credentials no groups: the scope needs a user', async () => {
    const svc: oauth.Client = { client_id: 'svc' };
    const all = await oauth.processClientCredentialsResponse(
      provider.as,
      svc,
      await oauth.clientCredentialsGrantRequest(provider.as, svc, oauth.ClientSecretBasic(svcSecret), {}, insecure),
    );
    expect(all.scope).toBe('api:read');
    expect(payloadOf(all.access_token)).not.toHaveProperty('groups');
    const refused = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'groups' },
      { authorization: basic('svc', svcSecret) },
    );
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });
});
