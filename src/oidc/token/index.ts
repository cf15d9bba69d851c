/**
 * The token endpoint (RFC 6749 §3.2). The edge reads the request once
 * (readTokenRequest: grant_type, the client's credentials, the grant's
 * parameters); then the steps, the same for every grant:
 *
 *   authenticateClient → checkGrantAllowed → checkParameters
 *     → grant.check → checkScope → grant.issue → respond → onTokensIssued
 *
 * Grants (src/oidc/grants) only fill in check and issue. The HTTP layer
 * adds Cache-Control: no-store and Pragma: no-cache (§5.1).
 */
import type { ClientGrantType, ClientRecord } from '../../model/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { OAuthError } from '../errors.js';
import { grants, type Grant, type GrantRequest, type MissingParameters } from '../grants/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { checkScope } from './check-scope.js';
import type { TokenRequest } from './read-token-request.js';
import { respond, type TokenResponse } from './respond.js';

export { readTokenRequest, type TokenRequest } from './read-token-request.js';
export type { TokenResponse } from './respond.js';
export type { TokenForm } from '../grants/index.js';

/** RFC 6749 §5.2 unauthorized_client: the client is not registered for this grant. */
function checkGrantAllowed(client: ClientRecord, grantType: ClientGrantType): void {
  if (!client.grantTypes.includes(grantType))
    throw new OAuthError('unauthorized_client', `The client is not allowed to use the ${grantType} grant.`);
}

/** RFC 6749 §5.2 invalid_request: a required parameter is missing. */
function checkParameters(parameters: GrantRequest | MissingParameters): GrantRequest {
  if ('missing' in parameters)
    throw new OAuthError('invalid_request', `Missing parameter: ${parameters.missing.join(', ')}.`);
  return parameters;
}

export async function handleTokenRequest(request: TokenRequest, deps: ProtocolDeps): Promise<TokenResponse> {
  const client = await authenticateClient(request.credentials, deps);
  checkGrantAllowed(client, request.grantType);
  const parameters = checkParameters(request.parameters);
  const grant: Grant = grants[parameters.grantType];
  const checked = await grant.check(parameters, client, deps);
  // RFC 6749 §4.1.3 has no scope parameter: a code's request takes the code's scopes.
  const requested = 'scope' in parameters ? parameters.scope : undefined;
  const scopes = checkScope(requested, checked.allowedScopes, grant.scopeRefusal);
  const response = respond(await grant.issue(checked, scopes, client, deps), scopes);
  deps.onTokensIssued(parameters.grantType);
  return response;
}
