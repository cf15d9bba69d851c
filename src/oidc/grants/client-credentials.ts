import { OAuthError } from '../errors.js';
import { openIdScopes } from '../scopes.js';
import { issueAccessToken } from '../tokens/index.js';
import type { Grant } from './grant.js';
import type { ClientCredentialsRequest } from './grant-request.js';

const userScopes = new Set<string>(openIdScopes);

/**
 * RFC 6749 §4.4: confidential clients only; scopes limited to the client's
 * allowed scopes that do not need a user. No database access: the client
 * comes from the in-memory directory and the token is a signed JWT.
 */
export const clientCredentialsGrant: Grant<ClientCredentialsRequest> = {
  grantType: 'client_credentials',
  read: (form) => ({ grantType: 'client_credentials', scope: form.scope }),
  check(_request, client) {
    if (client.tokenEndpointAuthMethod === 'none')
      return Promise.reject(new OAuthError('unauthorized_client', 'A public client cannot use client_credentials.'));
    return Promise.resolve({ allowedScopes: client.scopes.filter((s) => !userScopes.has(s)) });
  },
  scopeRefusal: 'Scopes not allowed for client_credentials: ',
  async issue(_checked, scopes, client, deps) {
    const access = await issueAccessToken(
      { sub: client.clientId, clientId: client.clientId, scopes, grantId: null, authTime: null, groups: null },
      deps,
    );
    return { accessToken: access.token, expiresIn: access.expiresIn };
  },
};
