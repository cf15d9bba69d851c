/**
 * The grant registry (CONTRIBUTING.md, "How the code is written", 4): every grant type the token endpoint
 * supports, each a module implementing Grant. Adding a grant is adding its
 * request to GrantRequest and its module to this table; the endpoint's
 * shared steps apply to it automatically.
 */
import type { ClientGrantType } from '../../model/index.js';
import type { Grant } from './grant.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { refreshTokenGrant } from './refresh-token.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { deviceCodeGrant } from './device-code.js';

export type { Checked, Grant, IssuedTokens } from './grant.js';
export type {
  AuthorizationCodeRequest,
  ClientCredentialsRequest,
  DeviceCodeRequest,
  GrantRequest,
  MissingParameters,
  RefreshTokenRequest,
} from './grant-request.js';
export type { TokenForm } from './token-form.js';

/**
 * Keyed by grant type, and the type ties each key to the grant of that
 * type: so the grant the endpoint finds for a request is the one that read
 * it, and the one whose check produced what its issue receives.
 */
export const grants: { readonly [T in ClientGrantType]: Grant & { grantType: T } } = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
  'urn:ietf:params:oauth:grant-type:device_code': deviceCodeGrant,
};

/** Whether grant_type names a registered grant (own keys only: "constructor" is no grant). */
export function isGrantType(grantType: string): grantType is ClientGrantType {
  return Object.hasOwn(grants, grantType);
}
