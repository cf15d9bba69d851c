import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { applyConfig } from '../../src/gitops/index.js';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { callbackOf, insecure, issueCode, startProvider, type Provider } from './support/provider-fixture.js';

const redirectUri = 'https://web.example.com/callback';

/** docs/gitops.md, "Apply semantics": a user or client removed by apply loses its tokens (tokenGrantRevoker). */
describe.each(databaseKinds)('apply revokes the tokens of removed principals on %s', (kind) => {
  let provider: Provider;
  const web: oauth.Client = { client_id: 'web' };
  const webAuth = oauth.ClientSecretBasic(testClient({ clientId: 'web' }).clientSecret!);

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients: [testClient({ clientId: 'web', redirectUris: [redirectUri] })],
    });
  });
  afterAll(() => provider.stop());

  async function tokensOf(sub: string) {
    const issued = await issueCode(provider, { clientId: 'web', redirectUri, sub });
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

  it("revokes a removed user's grants at once and keeps the others", async () => {
    const alice = await tokensOf('alice');
    const bob = await tokensOf('bob');
    await applyConfig(provider.idp.database.storage, { ...provider.idp.config, users: [testUser({ sub: 'bob' })] });
    expect((await oauth.userInfoRequest(provider.as, web, alice.access_token, insecure)).status).toBe(401);
    expect(
      (await oauth.refreshTokenGrantRequest(provider.as, web, webAuth, alice.refresh_token!, insecure)).status,
    ).toBe(400);
    expect((await oauth.userInfoRequest(provider.as, web, bob.access_token, insecure)).status).toBe(200);
  });

  it("revokes a removed client's grants", async () => {
    const bob = await tokensOf('bob');
    await applyConfig(provider.idp.database.storage, {
      ...provider.idp.config,
      users: [testUser({ sub: 'bob' })],
      clients: [],
    });
    expect((await oauth.userInfoRequest(provider.as, web, bob.access_token, insecure)).status).toBe(401);
  });
});
