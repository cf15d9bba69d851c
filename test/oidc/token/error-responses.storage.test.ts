import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../support/databases.js';
import { testClient, testUser } from '../../support/config-fixture.js';
import { basic, postForm, startProvider, type Provider } from '../support/provider-fixture.js';

const redirectUri = 'https://web.example.com/callback';
const svcSecret = 'svc-secret-0123456789abcdef-0123456789';
const web = { authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!) };
const svc = { authorization: basic('svc', svcSecret) };
const challenge = 'Basic realm="idp", charset="UTF-8"';

type Form = Record<string, string | string[]>;
/** name, form, headers, status, error, error_description, whether the Basic challenge is sent. */
type ErrorCase = [string, Form, Record<string, string>, number, string, string, boolean];

/**
 * Every error of the client-authenticated endpoints, to the letter: status,
 * `error`, `error_description` and the WWW-Authenticate challenge of
 * RFC 6749 §5.2. The requests with several faults pin which one answers
 * (grant_type, then the client's credentials, then the grant's parameters).
 */
const tokenCases: ErrorCase[] = [
  ['nothing', {}, {}, 400, 'invalid_request', 'The grant_type parameter is missing.', false],
  [
    'an empty grant_type',
    { grant_type: '' },
    web,
    400,
    'invalid_request',
    'The grant_type parameter is missing.',
    false,
  ],
  [
    'an unknown grant from an unknown client',
    { grant_type: 'password', client_id: 'nobody' },
    {},
    400,
    'unsupported_grant_type',
    'The grant type password is not supported.',
    false,
  ],
  [
    'a repeated grant_type',
    { grant_type: ['client_credentials', 'client_credentials'] },
    svc,
    400,
    'invalid_request',
    '"grant_type" must be a string',
    false,
  ],
  [
    'a repeated code',
    { grant_type: 'authorization_code', code: ['a', 'b'], redirect_uri: redirectUri },
    web,
    400,
    'invalid_request',
    '"code" must be a string',
    false,
  ],
  [
    'no grant_type and a malformed Basic header',
    {},
    { authorization: 'Basic !!!' },
    400,
    'invalid_request',
    'The grant_type parameter is missing.',
    false,
  ],
  [
    'a malformed Basic header',
    { grant_type: 'client_credentials' },
    { authorization: 'Basic !!!' },
    401,
    'invalid_client',
    'The Authorization header is not valid Basic client credentials.',
    true,
  ],
  [
    'Basic without a colon',
    { grant_type: 'client_credentials' },
    { authorization: `Basic ${Buffer.from('svc').toString('base64')}` },
    401,
    'invalid_client',
    'The Authorization header is not valid Basic client credentials.',
    true,
  ],
  [
    'Basic and client_secret',
    { grant_type: 'client_credentials', client_secret: 'x' },
    svc,
    400,
    'invalid_request',
    'Use one client authentication method, not several.',
    false,
  ],
  [
    'Basic and another client_id',
    { grant_type: 'client_credentials', client_id: 'web' },
    svc,
    400,
    'invalid_request',
    'The client_id in the body differs from the authenticated client.',
    false,
  ],
  [
    'no client',
    { grant_type: 'client_credentials' },
    {},
    401,
    'invalid_client',
    'The client is not authenticated.',
    false,
  ],
  [
    'an empty client_id',
    { grant_type: 'client_credentials', client_id: '' },
    {},
    401,
    'invalid_client',
    'The client is not authenticated.',
    false,
  ],
  [
    'an unknown client with Basic',
    { grant_type: 'client_credentials' },
    { authorization: basic('nobody', 'x') },
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    true,
  ],
  [
    'an unknown client with client_secret_post',
    { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
    {},
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    false,
  ],
  [
    'a pinned Basic client using client_secret_post',
    { grant_type: 'client_credentials', client_id: 'svc', client_secret: svcSecret },
    {},
    401,
    'invalid_client',
    'The client must authenticate with client_secret_basic.',
    false,
  ],
  [
    'a pinned Basic client sending no secret',
    { grant_type: 'client_credentials', client_id: 'svc' },
    {},
    401,
    'invalid_client',
    'The client must authenticate with client_secret_basic.',
    false,
  ],
  [
    'a wrong secret',
    { grant_type: 'client_credentials' },
    { authorization: basic('svc', 'wrong') },
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    true,
  ],
  [
    'an empty client_secret',
    { grant_type: 'authorization_code', client_id: 'post', client_secret: '' },
    {},
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    false,
  ],
  [
    'a public client using Basic',
    { grant_type: 'authorization_code' },
    { authorization: basic('spa', 'x') },
    401,
    'invalid_client',
    'The client must authenticate with none.',
    true,
  ],
  [
    'a grant the client may not use',
    { grant_type: 'client_credentials' },
    web,
    400,
    'unauthorized_client',
    'The client is not allowed to use the client_credentials grant.',
    false,
  ],
  [
    'no code and no redirect_uri',
    { grant_type: 'authorization_code' },
    web,
    400,
    'invalid_request',
    'Missing parameter: code, redirect_uri.',
    false,
  ],
  [
    'an empty code',
    { grant_type: 'authorization_code', code: '', redirect_uri: redirectUri },
    web,
    400,
    'invalid_request',
    'Missing parameter: code.',
    false,
  ],
  [
    'no redirect_uri',
    { grant_type: 'authorization_code', code: 'x' },
    web,
    400,
    'invalid_request',
    'Missing parameter: redirect_uri.',
    false,
  ],
  [
    'no code and a wrong secret',
    { grant_type: 'authorization_code' },
    { authorization: basic('web', 'wrong') },
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    true,
  ],
  [
    'no code and a grant the client may not use',
    { grant_type: 'authorization_code' },
    svc,
    400,
    'unauthorized_client',
    'The client is not allowed to use the authorization_code grant.',
    false,
  ],
  [
    'an unknown code',
    { grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri },
    web,
    400,
    'invalid_grant',
    'The authorization code is invalid.',
    false,
  ],
  [
    'no refresh_token',
    { grant_type: 'refresh_token' },
    web,
    400,
    'invalid_request',
    'Missing parameter: refresh_token.',
    false,
  ],
  [
    'an unknown refresh token and a malformed scope',
    { grant_type: 'refresh_token', refresh_token: 'x', scope: 'a  b' },
    web,
    400,
    'invalid_grant',
    'The refresh token is invalid.',
    false,
  ],
  [
    'client_credentials by a public client',
    { grant_type: 'client_credentials', client_id: 'pubsvc' },
    {},
    400,
    'unauthorized_client',
    'A public client cannot use client_credentials.',
    false,
  ],
  [
    'client_credentials by a public client with a malformed scope',
    { grant_type: 'client_credentials', client_id: 'pubsvc', scope: 'a  b' },
    {},
    400,
    'unauthorized_client',
    'A public client cannot use client_credentials.',
    false,
  ],
  [
    'a malformed scope',
    { grant_type: 'client_credentials', scope: 'a  b' },
    svc,
    400,
    'invalid_scope',
    'The scope parameter is malformed.',
    false,
  ],
  [
    'an empty scope',
    { grant_type: 'client_credentials', scope: '' },
    svc,
    400,
    'invalid_scope',
    'The scope parameter is malformed.',
    false,
  ],
  [
    'OpenID scopes for client_credentials',
    { grant_type: 'client_credentials', scope: 'openid api:read profile' },
    svc,
    400,
    'invalid_scope',
    'Scopes not allowed for client_credentials: openid profile.',
    false,
  ],
  [
    'a scope the client may not have',
    { grant_type: 'client_credentials', scope: 'api:read nope' },
    svc,
    400,
    'invalid_scope',
    'Scopes not allowed for client_credentials: nope.',
    false,
  ],
];

const revocationCases: ErrorCase[] = [
  ['no token and no client', {}, {}, 400, 'invalid_request', '"token" is required', false],
  ['no token', {}, web, 400, 'invalid_request', '"token" is required', false],
  ['a repeated token', { token: ['a', 'b'] }, web, 400, 'invalid_request', '"token" must be a string', false],
  [
    'a malformed Basic header',
    { token: 'x' },
    { authorization: 'Basic !!!' },
    401,
    'invalid_client',
    'The Authorization header is not valid Basic client credentials.',
    true,
  ],
  [
    'a wrong secret',
    { token: 'x' },
    { authorization: basic('web', 'wrong') },
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    true,
  ],
  [
    'Basic and client_secret',
    { token: 'x', client_secret: 'y' },
    web,
    400,
    'invalid_request',
    'Use one client authentication method, not several.',
    false,
  ],
  ['no client', { token: 'x' }, {}, 401, 'invalid_client', 'The client is not authenticated.', false],
  ['an unknown parameter', { token: 'x', foo: 'y' }, web, 400, 'invalid_request', '"foo" is not allowed', false],
];

const introspectionCases: ErrorCase[] = [
  ['no token', {}, web, 400, 'invalid_request', '"token" is required', false],
  [
    'a malformed Basic header',
    { token: 'x' },
    { authorization: 'Basic !!!' },
    401,
    'invalid_client',
    'The Authorization header is not valid Basic client credentials.',
    true,
  ],
  [
    'a wrong secret',
    { token: 'x' },
    { authorization: basic('web', 'wrong') },
    401,
    'invalid_client',
    'The client is unknown or its credentials are wrong.',
    true,
  ],
  [
    'a public client',
    { token: 'x', client_id: 'spa' },
    {},
    400,
    'unauthorized_client',
    'A public client cannot introspect tokens.',
    false,
  ],
  ['no client', { token: 'x' }, {}, 401, 'invalid_client', 'The client is not authenticated.', false],
];

describe.each(databaseKinds)('the error responses of the client-authenticated endpoints on %s', (kind) => {
  let provider: Provider;

  beforeAll(async () => {
    provider = await startProvider(kind, {
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web', redirectUris: [redirectUri] }),
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
          // Pinned: only Basic is accepted (unpinned, POST would be too).
          tokenEndpointAuthMethodPinned: true,
          grantTypes: ['client_credentials'],
          scopes: ['openid', 'api:read', 'api:write'],
        }),
        // The config rules refuse this client; stored anyway, the grant refuses it too.
        testClient({
          clientId: 'pubsvc',
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          grantTypes: ['client_credentials'],
          scopes: ['api:read'],
        }),
      ],
    });
  });
  afterAll(() => provider.stop());

  async function expectError(path: string, [, form, headers, status, error, description, challenged]: ErrorCase) {
    const response = await postForm(provider, path, form, headers);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error, error_description: description });
    expect(response.headers.get('www-authenticate')).toBe(challenged ? challenge : null);
    expect(response.headers.get('cache-control')).toBe('no-store');
  }

  it.each(tokenCases)('token: %s', (...c) => expectError('/oauth2/token', c));
  it.each(revocationCases)('revocation: %s', (...c) => expectError('/oauth2/revoke', c));
  it.each(introspectionCases)('introspection: %s', (...c) => expectError('/oauth2/introspect', c));
});
