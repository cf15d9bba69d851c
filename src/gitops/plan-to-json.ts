import type { Plan } from './plan.js';

/**
 * The machine form of a plan (`idp diff --format json`). Stable: keys in a
 * fixed order, changes ordered by kind then key, secrets as "(sensitive)",
 * snake_case like the config file; a group update whose members change has
 * `members: { added, removed }` after its fields; `access` lists who gains
 * or loses which client, as the text form's access section. `format_version`
 * changes only when an existing key changes or goes: new keys and kinds are
 * additions a reader skips when it does not know them (docs/gitops.md).
 */
export function planToJson(plan: Plan): string {
  const document = {
    format_version: 1,
    changes: plan.changes.map((change) => ({
      kind: change.kind,
      action: change.action,
      key: change.key,
      fields: change.fields.map((field) => ({ field: field.field, old: field.old, new: field.new })),
      ...(change.members ? { members: { added: change.members.added, removed: change.members.removed } } : {}),
    })),
    summary: { create: plan.summary.create, update: plan.summary.update, remove: plan.summary.remove },
    access: plan.access.map((access) => ({
      client_id: access.clientId,
      sub: access.sub,
      email: access.email,
      change: access.change,
      active_grants: access.activeGrants,
    })),
  };
  return JSON.stringify(document, null, 2);
}
