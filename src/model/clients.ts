import type { SigningAlgorithm } from './keys.js';
import type { ClientAccess } from './groups.js';
import type { ManagedBy } from './users.js';

export type ClientGrantType =
  | 'authorization_code'
  | 'refresh_token'
  | 'client_credentials'
  /** RFC 8628 §3.4. */
  | 'urn:ietf:params:oauth:grant-type:device_code';
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientRecord {
  clientId: string;
  name: string;
  /**
   * `sha256:<base64url of SHA-256>` of a configured `client_secret`, or the
   * argon2id PHC string of a configured `client_secret_hash`; null for a
   * public client. See src/clients/ for verification.
   */
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: ClientGrantType[];
  tokenEndpointAuthMethod: ClientAuthMethod;
  /**
   * The file set token_endpoint_auth_method: only that method is accepted.
   * Unset (false), a secret client accepts client_secret_basic and
   * client_secret_post alike.
   */
  tokenEndpointAuthMethodPinned: boolean;
  scopes: string[];
  requirePkce: boolean;
  skipConsent: boolean;
  /** Signs this client's ID tokens (OIDC Registration §2 id_token_signed_response_alg; RS256 by default). */
  idTokenSignedResponseAlg: SigningAlgorithm;
  /** Back-Channel Logout 1.0: where Logout Tokens go; null: none are sent. */
  backchannelLogoutUri: string | null;
  backchannelLogoutSessionRequired: boolean;
  /** RFC 9126: only pushed authorization requests are accepted. */
  requirePushedAuthorizationRequests: boolean;
  /** Who may use the client (`access`); null: every active user. */
  access: ClientAccess | null;
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}
