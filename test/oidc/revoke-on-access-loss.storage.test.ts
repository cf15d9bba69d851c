import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { applyConfig } from '../../src/gitops/index.js';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import type { GroupConfig } from '../../src/config/types.js';
import {
  basic,
  callbackOf,
  insecure,
  issueCode,
  startOtherInstance,
  startProvider,
  type OtherInstance,
  type Provider,
} from './support/provider-fixture.js';

const sre = (members: string[]): GroupConfig => ({ id: 'sre', name: 'sre', description: null, upstream: [], members });
const clients = [
  testClient({ clientId: 'grafana', access: { groups: ['sre'], roles: null, secondFactor: null } }),
  testClient({ clientId: 'web' }),
];

/**
 * docs/gitops.md, "The access section": a user who loses a client at an
 * apply loses the grants given to it in apply's transaction: the refresh
 * token answers invalid_grant, the access token is refused at userinfo and
 * introspection at once, on this instance and on another one sharing the
 * database. The user's other clients and other users keep theirs.
 */
describe.each(databaseKinds)('apply revokes the grants of users who lose a client on %s', (kind) => {
  let provider: Provider;
  let other: OtherInstance;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      clients,
      groups: [sre(['alice', 'bob'])],
    });
    other = await startOtherInstance(provider);
  });
  afterAll(async () => {
    await other.stop();
    await provider.stop();
  });

  async function tokensOf(sub: string, clientId: string) {
    const client: oauth.Client = { client_id: clientId };
    const redirectUri = `https://${clientId}.example.com/callback`;
    const issued = await issueCode(provider, { clientId, redirectUri, sub });
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      client,
      oauth.ClientSecretBasic(testClient({ clientId }).clientSecret!),
      callbackOf(provider, client, issued.code),
      redirectUri,
      issued.verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(provider.as, client, response, { expectedNonce: issued.nonce });
  }

  const userinfo = async (url: string, token: string) =>
    (await fetch(`${url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;
  async function active(url: string, token: string, clientId: string): Promise<boolean> {
    const response = await fetch(`${url}/oauth2/introspect`, {
      method: 'POST',
      headers: {
        authorization: basic(clientId, testClient({ clientId }).clientSecret!),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token }),
    });
    return ((await response.json()) as { active: boolean }).active;
  }
  async function refresh(clientId: string, refreshToken: string) {
    const response = await fetch(`${provider.idp.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: basic(clientId, testClient({ clientId }).clientSecret!),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("revokes exactly the loser's grants for that client, at once on both instances", async () => {
    const bobGrafana = await tokensOf('bob', 'grafana');
    const bobWeb = await tokensOf('bob', 'web');
    const aliceGrafana = await tokensOf('alice', 'grafana');
    const instances = [provider.idp.url, other.url];
    // Both instances have seen the token live (and may cache that).
    for (const url of instances) {
      expect(await userinfo(url, bobGrafana.access_token)).toBe(200);
      expect(await active(url, bobGrafana.access_token, 'grafana')).toBe(true);
    }

    const result = await applyConfig(provider.idp.database.storage, {
      ...provider.idp.config,
      groups: [sre(['alice'])],
    });
    expect(result.plan.access).toEqual([
      { clientId: 'grafana', sub: 'bob', email: 'bob@example.com', change: 'lose', activeGrants: 1 },
    ]);

    for (const url of instances) {
      expect(await userinfo(url, bobGrafana.access_token)).toBe(401);
      expect(await active(url, bobGrafana.access_token, 'grafana')).toBe(false);
      expect(await userinfo(url, bobWeb.access_token)).toBe(200);
      expect(await userinfo(url, aliceGrafana.access_token)).toBe(200);
      expect(await active(url, aliceGrafana.access_token, 'grafana')).toBe(true);
    }
    expect(await refresh('grafana', bobGrafana.refresh_token!)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await refresh('web', bobWeb.refresh_token!)).status).toBe(200);
    expect((await refresh('grafana', aliceGrafana.refresh_token!)).status).toBe(200);
  });
});
