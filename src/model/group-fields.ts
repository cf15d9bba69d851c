import type { GroupRecord } from './groups.js';
import type { EntityField } from './entity-fields.js';

/**
 * The group's fields (the `groups` table, the `groups` group of the config
 * file). Memberships are not fields: they live in `group_members` with
 * their source, and a plan shows them as member changes of the group.
 */
export const groupFields = [
  { property: 'id', column: 'id', storedAs: 'text' },
  // Defaults to the id (src/config/normalize-config.ts).
  { property: 'name', column: 'name', storedAs: 'text', file: 'name' },
  { property: 'description', column: 'description', storedAs: 'nullable text', file: 'description', copied: true },
  { property: 'upstream', column: 'upstream', storedAs: 'json', file: 'upstream' },
  { property: 'createdAt', column: 'created_at', storedAs: 'timestamp' },
  { property: 'updatedAt', column: 'updated_at', storedAs: 'timestamp' },
] as const satisfies readonly EntityField<GroupRecord>[];
