import type { ClientRecord } from './clients.js';
import type { EntityField } from './entity-fields.js';

/**
 * The client's fields (the `clients` table, the `clients` group of the
 * config file). A field the file declares as is needs only its row here
 * with `copied`, beside the schema, the record's property and a migration.
 */
export const clientFields = [
  { property: 'clientId', column: 'client_id', storedAs: 'text' },
  // Defaults to the client_id (src/config/normalize-config.ts).
  { property: 'name', column: 'name', storedAs: 'text', file: 'name' },
  // Computed from client_secret or client_secret_hash (src/gitops/plan-clients.ts).
  { property: 'secretHash', column: 'secret_hash', storedAs: 'nullable text', file: 'client_secret', sensitive: true },
  { property: 'redirectUris', column: 'redirect_uris', storedAs: 'list', file: 'redirect_uris', copied: true },
  {
    property: 'postLogoutRedirectUris',
    column: 'post_logout_redirect_uris',
    storedAs: 'list',
    file: 'post_logout_redirect_uris',
    copied: true,
  },
  { property: 'grantTypes', column: 'grant_types', storedAs: 'list', file: 'grant_types', copied: true },
  // client_secret_basic when the file leaves it out (src/config/normalize-config.ts).
  {
    property: 'tokenEndpointAuthMethod',
    column: 'token_endpoint_auth_method',
    storedAs: 'text',
    file: 'token_endpoint_auth_method',
  },
  // Whether the file set token_endpoint_auth_method (src/config/normalize-config.ts); no file key
  // of its own, but the plan shows it so that setting the method to its default is a change.
  {
    property: 'tokenEndpointAuthMethodPinned',
    column: 'token_endpoint_auth_method_pinned',
    storedAs: 'boolean',
    file: 'token_endpoint_auth_method_pinned',
  },
  { property: 'scopes', column: 'scopes', storedAs: 'list', file: 'scopes', copied: true },
  { property: 'requirePkce', column: 'require_pkce', storedAs: 'boolean', file: 'require_pkce', copied: true },
  { property: 'skipConsent', column: 'skip_consent', storedAs: 'boolean', file: 'skip_consent', copied: true },
  {
    property: 'idTokenSignedResponseAlg',
    column: 'id_token_signed_response_alg',
    storedAs: 'text',
    file: 'id_token_signed_response_alg',
    copied: true,
  },
  {
    property: 'backchannelLogoutUri',
    column: 'backchannel_logout_uri',
    storedAs: 'nullable text',
    file: 'backchannel_logout_uri',
  },
  {
    property: 'backchannelLogoutSessionRequired',
    column: 'backchannel_logout_session_required',
    storedAs: 'boolean',
    file: 'backchannel_logout_session_required',
    copied: true,
  },
  {
    property: 'requirePushedAuthorizationRequests',
    column: 'require_pushed_authorization_requests',
    storedAs: 'boolean',
    file: 'require_pushed_authorization_requests',
    copied: true,
  },
  // From the file's snake_case `access` (src/config/normalize-config.ts).
  { property: 'access', column: 'access', storedAs: 'nullable json', file: 'access', optional: true },
  { property: 'managedBy', column: 'managed_by', storedAs: 'text' },
  { property: 'createdAt', column: 'created_at', storedAs: 'timestamp' },
  { property: 'updatedAt', column: 'updated_at', storedAs: 'timestamp' },
] as const satisfies readonly EntityField<ClientRecord>[];
