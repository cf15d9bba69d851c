import { OAuthError } from '../errors.js';
import { openIdScopes, parseScope } from '../scopes.js';
import { issueAccessToken } from '../tokens/index.js';
import type { Grant } from './grant.js';

const userScopes = new Set<string>(openIdScopes);

/**
 * RFC 6749 §4.4: confidential clients only; scopes limited to the client's
 * allowed scopes that do not need a user. Without a scope parameter the
 * token gets all of them (RFC 6749 §3.3 default). No database access: the
 * client comes from the in-memory directory and the token is a signed JWT.
 */
export const clientCredentialsGrant: Grant = {
  grantType: 'client_credentials',
  parameters: [],
  async handler({ client, params }, deps) {
    if (client.tokenEndpointAuthMethod === 'none') throw new OAuthError('unauthorized_client', 'A public client cannot use client_credentials.');
    const allowed = client.scopes.filter((s) => !userScopes.has(s));
    const scopes = params.scope === undefined ? allowed : parseScope(params.scope);
    const refused = scopes.filter((s) => !allowed.includes(s));
    if (refused.length > 0) throw new OAuthError('invalid_scope', `Scopes not allowed for client_credentials: ${refused.join(' ')}.`);
    const access = await issueAccessToken({ sub: client.clientId, clientId: client.clientId, scopes, grantId: null, authTime: null }, deps);
    return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, scope: scopes.join(' ') };
  },
};
