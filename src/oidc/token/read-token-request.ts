import { readClientCredentials, type PresentedCredentials } from '../../clients/index.js';
import type { ClientGrantType } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import { grants, isGrantType, type GrantRequest, type MissingParameters, type TokenForm } from '../grants/index.js';

/** A token request, read once from the wire, camelCase from here on. */
export interface TokenRequest {
  grantType: ClientGrantType;
  /** The client's credentials, or why they could not be read: client authentication judges either. */
  credentials: PresentedCredentials;
  /**
   * The grant's parameters, or the required ones missing. A missing one is
   * answered only after the client has authenticated and may use the grant
   * (the endpoint's steps), so an unauthenticated caller hears invalid_client.
   */
  parameters: GrantRequest | MissingParameters;
}

/**
 * The token endpoint's edge (CONTRIBUTING.md, "How the code is written", 5): the route's joi schema has
 * checked the wire shape; this turns the form and the Authorization header
 * into a TokenRequest. A missing or unknown grant_type is answered first,
 * before anything about the client (RFC 6749 §5.2).
 */
export function readTokenRequest(form: TokenForm, authorization: string | undefined): TokenRequest {
  const grantType = form.grant_type;
  if (grantType === undefined || grantType === '')
    throw new OAuthError('invalid_request', 'The grant_type parameter is missing.');
  if (!isGrantType(grantType))
    throw new OAuthError('unsupported_grant_type', `The grant type ${grantType} is not supported.`);
  return {
    grantType,
    credentials: readClientCredentials(authorization, form.client_id, form.client_secret),
    parameters: grants[grantType].read(form),
  };
}
