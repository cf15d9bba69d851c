import type { UserRecord } from './users.js';
import type { EntityField } from './entity-fields.js';

/**
 * The user's fields (the `users` table, the `users` group of the config
 * file). A field without `file` is the server's own: apply sets it.
 */
export const userFields = [
  { property: 'sub', column: 'sub', storedAs: 'text' },
  { property: 'managedBy', column: 'managed_by', storedAs: 'text' },
  { property: 'email', column: 'email', storedAs: 'text', file: 'email', copied: true },
  { property: 'role', column: 'role', storedAs: 'text', file: 'role', copied: true },
  { property: 'emailVerified', column: 'email_verified', storedAs: 'boolean', file: 'email_verified', copied: true },
  { property: 'emailVerificationRequired', column: 'email_verification_required', storedAs: 'boolean' },
  {
    property: 'passwordHash',
    column: 'password_hash',
    storedAs: 'nullable text',
    file: 'password_hash',
    copied: true,
    sensitive: true,
  },
  { property: 'secondFactorRequired', column: 'second_factor_required', storedAs: 'boolean' },
  { property: 'name', column: 'name', storedAs: 'nullable text', file: 'name', copied: true, optional: true },
  {
    property: 'givenName',
    column: 'given_name',
    storedAs: 'nullable text',
    file: 'given_name',
    copied: true,
    optional: true,
  },
  {
    property: 'familyName',
    column: 'family_name',
    storedAs: 'nullable text',
    file: 'family_name',
    copied: true,
    optional: true,
  },
  { property: 'locale', column: 'locale', storedAs: 'nullable text', file: 'locale', copied: true, optional: true },
  { property: 'deletedAt', column: 'deleted_at', storedAs: 'nullable timestamp' },
  { property: 'createdAt', column: 'created_at', storedAs: 'timestamp' },
  { property: 'updatedAt', column: 'updated_at', storedAs: 'timestamp' },
] as const satisfies readonly EntityField<UserRecord>[];
