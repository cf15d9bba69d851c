import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { databaseKinds } from '../../support/databases.js';
import { testClient, testUser } from '../../support/config-fixture.js';
import { basic, issueCode, postForm, startProvider, type Provider } from '../support/provider-fixture.js';

const redirectUri = 'https://web.example.com/callback';
const bare = { authorization: basic('bare', testClient({ clientId: 'bare' }).clientSecret!) };
const web = { authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!) };

/**
 * RFC 6749 §3.3 defines no empty scope: when nothing is granted, the token
 * response, the access token and introspection carry no `scope` at all,
 * never `"scope": ""` (issue #10).
 */
describe.each(databaseKinds)('an empty grant of scopes on %s', (kind) => {
  let provider: Provider;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [redirectUri] }),
        // Only OpenID scopes, which client_credentials never grants: nothing is left.
        testClient({ clientId: 'bare', grantTypes: ['client_credentials'], scopes: ['openid', 'profile'] }),
      ],
    });
  });
  afterAll(() => provider.stop());

  async function expectNoScope(accessToken: string, introspector: Record<string, string>) {
    expect(decodeJwt(accessToken)).not.toHaveProperty('scope');
    const introspection = await postForm(provider, '/oauth2/introspect', { token: accessToken }, introspector);
    expect(introspection.body).toMatchObject({ active: true, token_type: 'Bearer' });
    expect(introspection.body).not.toHaveProperty('scope');
  }

  it('client_credentials without a scope parameter: a token without scope', async () => {
    const response = await postForm(provider, '/oauth2/token', { grant_type: 'client_credentials' }, bare);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    await expectNoScope(response.body.access_token, bare);
  });

  it('authorization_code for a code that granted nothing: a token without scope', async () => {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, scopes: [] });
    const form = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectUri,
      code_verifier: issued.verifier,
    };
    const response = await postForm(provider, '/oauth2/token', form, web);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    await expectNoScope(response.body.access_token, web);
  });

  it('refresh_token always has a scope to show: the grant holds offline_access and a narrowing names one scope at least', async () => {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, scopes: ['openid', 'offline_access'] });
    const form = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectUri,
      code_verifier: issued.verifier,
    };
    const tokens = (await postForm(provider, '/oauth2/token', form, web)).body;
    const narrowed = await postForm(
      provider,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'offline_access' },
      web,
    );
    expect(narrowed.body.scope).toBe('offline_access');
    expect(decodeJwt(narrowed.body.access_token).scope).toBe('offline_access');
    const introspection = await postForm(provider, '/oauth2/introspect', { token: narrowed.body.refresh_token }, web);
    expect(introspection.body).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      scope: 'openid offline_access',
    });
  });
});
