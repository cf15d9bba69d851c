import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { joinGroup, leaveGroup } from '../support/group-members.js';
import { callbackOf, insecure, issueCode, startProvider, type Provider } from './support/provider-fixture.js';

/**
 * docs/oidc.md, "Token endpoint": every refresh asks the client's access
 * rule again (src/oidc/grants/recheck-access.ts). A user who has left the
 * client's group gets invalid_grant, and the grant is revoked with its
 * access tokens, at once; a client without a rule is not affected.
 */
describe.each(databaseKinds)('refresh re-checks clients[].access on %s', (kind) => {
  let provider: Provider;
  const grafana: oauth.Client = { client_id: 'grafana' };
  const grafanaAuth = oauth.ClientSecretBasic(testClient({ clientId: 'grafana' }).clientSecret!);
  const notes: oauth.Client = { client_id: 'notes' };
  const notesAuth = oauth.ClientSecretBasic(testClient({ clientId: 'notes' }).clientSecret!);
  const storage = () => provider.idp.database.storage;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'root', role: 'admin' })],
      groups: [{ id: 'sre', name: 'SRE', description: null, upstream: [], members: ['alice'] }],
      clients: [
        testClient({ clientId: 'grafana', access: { groups: ['sre'], roles: null, secondFactor: null } }),
        testClient({ clientId: 'console', access: { groups: null, roles: ['admin'], secondFactor: null } }),
        testClient({ clientId: 'notes' }),
      ],
    });
    await joinGroup(storage(), 'sre', ['alice']);
  });
  afterAll(() => provider.stop());

  async function tokensOf(client: oauth.Client, auth: oauth.ClientAuth, sub = 'alice') {
    const redirectUri = `https://${client.client_id}.example.com/callback`;
    const issued = await issueCode(provider, { clientId: client.client_id, redirectUri, sub });
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      client,
      auth,
      callbackOf(provider, client, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(provider.as, client, response, { expectedNonce: issued.nonce });
  }
  const refresh = (client: oauth.Client, auth: oauth.ClientAuth, token: string) =>
    oauth.refreshTokenGrantRequest(provider.as, client, auth, token, insecure);
  const userinfo = (client: oauth.Client, token: string) => oauth.userInfoRequest(provider.as, client, token, insecure);
  const denials = async () => {
    const { events } = await storage().repositories.events.list(storage().db, {
      type: 'access.denied',
      page: 1,
      pageSize: 50,
    });
    return events.map((e) => ({ actor: e.actor, subject: e.subject, clientId: e.clientId, detail: e.detail }));
  };

  it('refreshes while the user is in the group; once out, invalid_grant and the grant revoked at once', async () => {
    const first = await tokensOf(grafana, grafanaAuth);
    const renewed = await oauth.processRefreshTokenResponse(
      provider.as,
      grafana,
      await refresh(grafana, grafanaAuth, first.refresh_token!),
    );
    const notesTokens = await tokensOf(notes, notesAuth);
    expect((await userinfo(grafana, renewed.access_token)).status).toBe(200);

    await leaveGroup(storage(), 'sre', ['alice']);
    const refused = await refresh(grafana, grafanaAuth, renewed.refresh_token!);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The user no longer has access to this client; the grant has been revoked.',
    });
    // The grant went with it: its access tokens, old and new, and no rejoining brings it back.
    expect((await userinfo(grafana, renewed.access_token)).status).toBe(401);
    expect((await userinfo(grafana, first.access_token)).status).toBe(401);
    await joinGroup(storage(), 'sre', ['alice']);
    const afterRejoin = await refresh(grafana, grafanaAuth, renewed.refresh_token!);
    expect(await afterRejoin.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await denials()).toEqual([
      { actor: 'alice', subject: 'alice', clientId: 'grafana', detail: { at: 'refresh' } },
    ]);

    // Another client's grant (no access rule) is untouched.
    expect((await userinfo(notes, notesTokens.access_token)).status).toBe(200);
    expect((await refresh(notes, notesAuth, notesTokens.refresh_token!)).status).toBe(200);
  });

  it('re-checks a rule of roles the same way: an admin keeps the client, a user never had it', async () => {
    const adminConsole: oauth.Client = { client_id: 'console' };
    const consoleAuth = oauth.ClientSecretBasic(testClient({ clientId: 'console' }).clientSecret!);
    const admin = await tokensOf(adminConsole, consoleAuth, 'root');
    expect((await refresh(adminConsole, consoleAuth, admin.refresh_token!)).status).toBe(200);
    // A code issued before the rule changed (here: inserted) still cannot be refreshed by a user.
    const user = await tokensOf(adminConsole, consoleAuth, 'alice');
    expect(await (await refresh(adminConsole, consoleAuth, user.refresh_token!)).json()).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await userinfo(adminConsole, user.access_token)).status).toBe(401);
  });
});
