import type { TermRecord } from './terms.js';
import type { EntityField } from './entity-fields.js';

/** The terms' fields (the `terms` table, the `terms` group of the config file). */
export const termFields = [
  { property: 'id', column: 'id', storedAs: 'text' },
  { property: 'required', column: 'required', storedAs: 'boolean', file: 'required', copied: true },
  { property: 'consentMode', column: 'consent_mode', storedAs: 'text', file: 'consent_mode', copied: true },
  { property: 'version', column: 'version', storedAs: 'text', file: 'version', copied: true },
  { property: 'content', column: 'content', storedAs: 'json', file: 'content', copied: true },
  { property: 'createdAt', column: 'created_at', storedAs: 'timestamp' },
  { property: 'updatedAt', column: 'updated_at', storedAs: 'timestamp' },
] as const satisfies readonly EntityField<TermRecord>[];
