import type { Plan } from './plan.js';

/**
 * The machine form of a plan (`idp diff --format json`). Stable: keys in a
 * fixed order, changes ordered by kind then key, secrets as "(sensitive)",
 * snake_case like the config file. `format_version` changes only when this
 * shape does.
 */
export function planToJson(plan: Plan): string {
  const document = {
    format_version: 1,
    changes: plan.changes.map((change) => ({
      kind: change.kind,
      action: change.action,
      key: change.key,
      fields: change.fields.map((field) => ({ field: field.field, old: field.old, new: field.new })),
    })),
    summary: { create: plan.summary.create, update: plan.summary.update, remove: plan.summary.remove },
  };
  return JSON.stringify(document, null, 2);
}
