/**
 * The token endpoint (RFC 6749 §3.2), as steps: check the grant type →
 * authenticate the client (src/clients) → check the client may use the
 * grant → check the grant's parameters → run the grant (src/oidc/grants).
 * The HTTP layer adds Cache-Control: no-store and Pragma: no-cache (§5.1).
 */
import { readClientCredentials } from '../../clients/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { OAuthError } from '../errors.js';
import { grants, type Grant, type TokenResponse } from '../grants/index.js';
import type { ProviderDeps } from '../provider-deps.js';

export interface TokenRequest {
  /** The form body, one value per parameter. */
  params: Record<string, string | undefined>;
  /** The Authorization header, if any. */
  authorization: string | undefined;
}

function checkGrantType(params: TokenRequest['params']): Grant {
  const grantType = params.grant_type;
  if (grantType === undefined || grantType === '') throw new OAuthError('invalid_request', 'The grant_type parameter is missing.');
  const grant = grants.get(grantType);
  if (!grant) throw new OAuthError('unsupported_grant_type', `The grant type ${grantType} is not supported.`);
  return grant;
}

function checkParameters(grant: Grant, params: TokenRequest['params']): void {
  const missing = grant.parameters.filter((name) => params[name] === undefined || params[name] === '');
  if (missing.length > 0) throw new OAuthError('invalid_request', `Missing parameter: ${missing.join(', ')}.`);
}

export async function handleTokenRequest(request: TokenRequest, deps: ProviderDeps): Promise<TokenResponse> {
  const grant = checkGrantType(request.params);
  const client = await authenticateClient(readClientCredentials(request.authorization, request.params.client_id, request.params.client_secret), deps);
  if (!client.grantTypes.includes(grant.grantType)) {
    throw new OAuthError('unauthorized_client', `The client is not allowed to use the ${grant.grantType} grant.`);
  }
  checkParameters(grant, request.params);
  return grant.handler({ client, params: request.params }, deps);
}
