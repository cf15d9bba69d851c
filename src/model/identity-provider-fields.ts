import type { IdentityProviderRecord } from './identity-providers.js';
import type { EntityField } from './entity-fields.js';

/** The upstream identity providers' fields (the `identity_providers` table and config group). */
export const identityProviderFields = [
  { property: 'id', column: 'id', storedAs: 'text' },
  { property: 'type', column: 'type', storedAs: 'text', file: 'type', copied: true },
  { property: 'enabled', column: 'enabled', storedAs: 'boolean', file: 'enabled', copied: true },
  { property: 'displayName', column: 'display_name', storedAs: 'nullable text', file: 'display_name', copied: true },
  { property: 'iconUrl', column: 'icon_url', storedAs: 'nullable text', file: 'icon_url', copied: true },
  { property: 'clientId', column: 'client_id', storedAs: 'text', file: 'client_id', copied: true },
  // A keyed digest of client_secret, which stays in the file (src/gitops/fingerprint-secret.ts).
  {
    property: 'clientSecretFingerprint',
    column: 'client_secret_fingerprint',
    storedAs: 'text',
    file: 'client_secret',
    sensitive: true,
  },
  {
    property: 'authorizationUrl',
    column: 'authorization_url',
    storedAs: 'nullable text',
    file: 'authorization_url',
    copied: true,
  },
  { property: 'tokenUrl', column: 'token_url', storedAs: 'nullable text', file: 'token_url', copied: true },
  { property: 'userinfoUrl', column: 'userinfo_url', storedAs: 'nullable text', file: 'userinfo_url', copied: true },
  { property: 'emailUrl', column: 'email_url', storedAs: 'nullable text', file: 'email_url', copied: true },
  // Defaults by type (src/config/normalize-config.ts).
  { property: 'scopes', column: 'scopes', storedAs: 'list', file: 'scopes' },
  {
    property: 'emailConflictStrategy',
    column: 'email_conflict_strategy',
    storedAs: 'text',
    file: 'email_conflict_strategy',
    copied: true,
  },
  { property: 'createdAt', column: 'created_at', storedAs: 'timestamp' },
  { property: 'updatedAt', column: 'updated_at', storedAs: 'timestamp' },
] as const satisfies readonly EntityField<IdentityProviderRecord>[];
