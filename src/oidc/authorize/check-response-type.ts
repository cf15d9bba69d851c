import { OAuthError } from '../errors.js';
import type { WithTarget } from './check-redirect-uri.js';

const responseModes = ['query', 'form_post'];

/**
 * Only the authorization code flow (RFC 6749 §4.1), answered in the query or
 * by form post (OAuth 2.0 Form Post Response Mode). Request objects are not
 * supported (OIDC Core §6): a request_uri left here is not one of the PAR
 * endpoint's. A client with require_pushed_authorization_requests takes
 * pushed requests only (RFC 9126 §5).
 */
export function checkResponseType(state: WithTarget): WithTarget {
  const { client } = state;
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  if (params.request !== undefined) throw new OAuthError('request_not_supported', 'Request objects are not supported.');
  if (params.request_uri !== undefined)
    throw new OAuthError('request_uri_not_supported', 'The request_uri parameter is not supported.');
  if (client.requirePushedAuthorizationRequests && !state.pushed) {
    throw new OAuthError(
      'invalid_request',
      'This client must push its authorization requests to the PAR endpoint first.',
    );
  }
  if (params.response_mode !== undefined && !responseModes.includes(params.response_mode)) {
    throw new OAuthError('invalid_request', 'The response_mode must be query or form_post.');
  }
  if (params.response_type === undefined)
    throw new OAuthError('invalid_request', 'The response_type parameter is missing.');
  if (params.response_type !== 'code') {
    throw new OAuthError('unsupported_response_type', 'Only the response_type code is supported.');
  }
  if (!client.grantTypes.includes('authorization_code')) {
    throw new OAuthError('unauthorized_client', 'The client may not use the authorization code flow.');
  }
  return state;
}
