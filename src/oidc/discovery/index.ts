/**
 * OpenID Connect Discovery 1.0 §3: the provider metadata, listing exactly
 * what this provider implements (and nothing it does not).
 */
import type { SigningAlgorithm } from '../../model/index.js';
import { acrValuesSupported } from '../acr.js';
import { openIdScopes } from '../scopes.js';
import { grants } from '../grants/index.js';
import { emailClaimNames, groupsClaimName, profileClaimNames } from '../user-claims.js';

const clientAuthMethods = ['client_secret_basic', 'client_secret_post', 'none'];
const authenticatedClientMethods = ['client_secret_basic', 'client_secret_post'];

/** `algorithms`: those that have a key (KeyStore.algorithms(), RS256 always among them). */
export function providerMetadata(issuer: string, algorithms: readonly SigningAlgorithm[]): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    userinfo_endpoint: `${issuer}/oauth2/userinfo`,
    jwks_uri: `${issuer}/oauth2/jwks`,
    end_session_endpoint: `${issuer}/oauth2/logout`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    introspection_endpoint: `${issuer}/oauth2/introspect`,
    // RFC 9126 §5; no client needs it by default (clients[].require_pushed_authorization_requests).
    pushed_authorization_request_endpoint: `${issuer}/oauth2/par`,
    require_pushed_authorization_requests: false,
    device_authorization_endpoint: `${issuer}/oauth2/device_authorization`,
    scopes_supported: [...openIdScopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    grant_types_supported: Object.keys(grants),
    subject_types_supported: ['public'],
    // §3: RS256 MUST be listed; every client may ask for any of them (id_token_signed_response_alg).
    id_token_signing_alg_values_supported: [...algorithms],
    token_endpoint_auth_methods_supported: clientAuthMethods,
    // RFC 7009 and RFC 7662 endpoints take the same client authentication;
    // public clients may revoke their own tokens.
    revocation_endpoint_auth_methods_supported: clientAuthMethods,
    introspection_endpoint_auth_methods_supported: authenticatedClientMethods,
    code_challenge_methods_supported: ['S256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'amr',
      'acr',
      'nonce',
      'at_hash',
      'sid',
      ...profileClaimNames,
      ...emailClaimNames,
      groupsClaimName,
    ],
    acr_values_supported: [...acrValuesSupported],
    claims_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    authorization_response_iss_parameter_supported: true,
    // Back-Channel Logout 1.0 §2.1: Logout Tokens on sign-out, and they (and ID tokens) carry sid.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}
