import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { databaseKinds } from '../../support/databases.js';
import { testClient } from '../../support/config-fixture.js';
import { postForm, startProvider, type Provider } from '../support/provider-fixture.js';

/** Secrets as Authlib and python requests put them into Basic: not form-encoded. */
const rawSecrets = {
  percent: 'fifty%+one:two-0123456789abcdef',
  plus: 'a+b:c-0123456789abcdef-0123456789',
  encodedLooking: 'x%41y-0123456789abcdef-0123456789',
};
const unpinnedSecret = 'unpinned-secret-0123456789abcdef';
const pinnedSecret = 'pinned-secret-0123456789abcdef-01';

const rawBasic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const formBasic = (id: string, secret: string) => {
  const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return rawBasic(encode(id), encode(secret));
};

function machineClient(clientId: string, clientSecret: string, pinned: boolean) {
  return testClient({
    clientId,
    clientSecret,
    tokenEndpointAuthMethodPinned: pinned,
    grantTypes: ['client_credentials'],
    scopes: ['api:read'],
  });
}

/**
 * Client authentication as relying parties send it (docs/oidc.md, "Client
 * authentication"): a secret client that did not pin its method accepts
 * Basic and POST; a pinned one only its own; Basic credentials that are not
 * form-encoded are tried as sent.
 */
describe.each(databaseKinds)('client authentication on %s', (kind) => {
  let provider: Provider;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      clients: [
        machineClient('unpinned', unpinnedSecret, false),
        machineClient('pinned', pinnedSecret, true),
        testClient({
          ...machineClient('pinned-post', pinnedSecret, true),
          tokenEndpointAuthMethod: 'client_secret_post',
        }),
        machineClient('raw-percent', rawSecrets.percent, false),
        machineClient('raw-plus', rawSecrets.plus, false),
        machineClient('raw-encoded-looking', rawSecrets.encodedLooking, false),
        machineClient('odd+id', unpinnedSecret, false),
      ],
    });
  });
  afterAll(() => provider.stop());

  async function discover(clientId: string, auth: oidc.ClientAuth): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(provider.idp.url), clientId, undefined, auth, {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test server speaks plain HTTP on 127.0.0.1
      execute: [oidc.allowInsecureRequests],
    });
  }

  describe('oidcc-server-client-secret-post', () => {
    it('lets openid-client 6 use client_secret_post with a client registered without a method', async () => {
      const config = await discover('unpinned', oidc.ClientSecretPost(unpinnedSecret));
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api:read' });
      expect(tokens.scope).toBe('api:read');
    });

    it('lets openid-client 6 authenticate with its default (a secret and no method), which is client_secret_post', async () => {
      const config = await oidc.discovery(new URL(provider.idp.url), 'unpinned', unpinnedSecret, undefined, {
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test server speaks plain HTTP on 127.0.0.1
        execute: [oidc.allowInsecureRequests],
      });
      expect((await oidc.clientCredentialsGrant(config)).access_token).toEqual(expect.any(String));
      // The same default against a client pinned to Basic is refused.
      const pinned = await oidc.discovery(new URL(provider.idp.url), 'pinned', pinnedSecret, undefined, {
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test server speaks plain HTTP on 127.0.0.1
        execute: [oidc.allowInsecureRequests],
      });
      await expect(oidc.clientCredentialsGrant(pinned)).rejects.toMatchObject({ error: 'invalid_client' });
    });

    it('lets the same client use client_secret_basic', async () => {
      const config = await discover('unpinned', oidc.ClientSecretBasic(unpinnedSecret));
      expect((await oidc.clientCredentialsGrant(config)).access_token).toEqual(expect.any(String));
    });

    it('still refuses a wrong secret sent either way', async () => {
      for (const auth of [oidc.ClientSecretPost('wrong'), oidc.ClientSecretBasic('wrong')]) {
        const config = await discover('unpinned', auth);
        // openid-client reports a Basic refusal by its WWW-Authenticate challenge, a POST one by its body.
        await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({ status: 401 });
      }
    });

    it('refuses client_secret_post for a client pinned to client_secret_basic', async () => {
      const config = await discover('pinned', oidc.ClientSecretPost(pinnedSecret));
      await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({
        error: 'invalid_client',
        error_description: 'The client must authenticate with client_secret_basic.',
      });
      const basicConfig = await discover('pinned', oidc.ClientSecretBasic(pinnedSecret));
      expect((await oidc.clientCredentialsGrant(basicConfig)).access_token).toEqual(expect.any(String));
    });

    it('refuses client_secret_basic for a client pinned to client_secret_post', async () => {
      const config = await discover('pinned-post', oidc.ClientSecretBasic(pinnedSecret));
      await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({
        status: 401,
        code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
      });
      const response = await postForm(
        provider,
        '/oauth2/token',
        { grant_type: 'client_credentials' },
        { authorization: formBasic('pinned-post', pinnedSecret) },
      );
      expect(response.body).toEqual({
        error: 'invalid_client',
        error_description: 'The client must authenticate with client_secret_post.',
      });
    });

    it('refuses no secret at all for a secret client, pinned or not', async () => {
      const response = await postForm(provider, '/oauth2/token', {
        grant_type: 'client_credentials',
        client_id: 'unpinned',
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error: 'invalid_client',
        error_description: 'The client must authenticate with client_secret_basic.',
      });
    });
  });

  describe('client_secret_basic as relying parties send it', () => {
    it.each([
      ['a % and a : sent raw (not valid form-encoding)', 'raw-percent', rawSecrets.percent, rawBasic],
      ['a % and a : form-encoded', 'raw-percent', rawSecrets.percent, formBasic],
      ['a + and a : sent raw', 'raw-plus', rawSecrets.plus, rawBasic],
      ['a + and a : form-encoded', 'raw-plus', rawSecrets.plus, formBasic],
      ['an escape-looking %41 sent raw', 'raw-encoded-looking', rawSecrets.encodedLooking, rawBasic],
      ['an escape-looking %41 form-encoded', 'raw-encoded-looking', rawSecrets.encodedLooking, formBasic],
      ['a + in the client id sent raw', 'odd+id', unpinnedSecret, rawBasic],
      ['a + in the client id form-encoded', 'odd+id', unpinnedSecret, formBasic],
    ])('accepts %s', async (_, clientId, secret, encode) => {
      const response = await postForm(
        provider,
        '/oauth2/token',
        { grant_type: 'client_credentials' },
        { authorization: encode(clientId, secret) },
      );
      expect(response.status).toBe(200);
      expect(response.body.access_token).toEqual(expect.any(String));
    });

    it('refuses the + read as a space', async () => {
      const response = await postForm(
        provider,
        '/oauth2/token',
        { grant_type: 'client_credentials' },
        { authorization: rawBasic('raw-plus', rawSecrets.plus.replace('+', '%20')) },
      );
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="idp", charset="UTF-8"');
    });

    it('lets openid-client 6 authenticate with Basic (it form-encodes)', async () => {
      const config = await discover('raw-plus', oidc.ClientSecretBasic(rawSecrets.plus));
      expect((await oidc.clientCredentialsGrant(config)).access_token).toEqual(expect.any(String));
    });
  });
});
