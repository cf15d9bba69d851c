import type { UserConfig } from '../config/types.js';
import type { UserRecord } from '../model/index.js';
import { byKey, diffFields, listFields, plannedFields } from './field-spec.js';
import { userFields } from '../model/user-fields.js';
import type { EntityField } from '../model/entity-fields.js';
import type { Change, DesiredUser, PlanWrites } from './plan.js';

const plannedUserFields = plannedFields<DesiredUser>(userFields as readonly EntityField<DesiredUser>[]);

function toDesired(user: UserConfig): DesiredUser {
  // Undeclared profile fields are null: a field removed from the file is cleared (docs/gitops.md).
  return { ...user, managedBy: 'config', emailVerificationRequired: false, secondFactorRequired: false };
}

/**
 * Config users against the database's config-managed users, read once by
 * the plan (docs/gitops.md, "Apply semantics"):
 * new subs are created; changed ones updated; a soft-deleted one that is
 * back in the file is restored (deleted_at → null); a live one that left
 * the file is removed (soft-deleted). Database-managed users are never read
 * here, let alone changed.
 */
export function planUsers(
  users: UserConfig[],
  storedUsers: UserRecord[],
): { changes: Change[]; writes: PlanWrites['users'] } {
  const stored = new Map(storedUsers.map((u) => [u.sub, u]));
  const changes: Change[] = [];
  const writes: PlanWrites['users'] = { create: [], update: [], remove: [] };
  const wanted = new Set<string>();

  for (const user of users) {
    wanted.add(user.sub);
    const desired = toDesired(user);
    const current = stored.get(user.sub);
    if (!current) {
      changes.push({ kind: 'user', action: 'create', key: user.sub, fields: listFields(plannedUserFields, desired) });
      writes.create.push(desired);
      continue;
    }
    const diff = diffFields(plannedUserFields, current, desired);
    const wasDeleted = current.deletedAt !== null;
    if (wasDeleted)
      diff.fields.push({ field: 'deleted_at', old: new Date(current.deletedAt as number).toISOString(), new: null });
    if (diff.fields.length === 0) continue;
    changes.push({ kind: 'user', action: 'update', key: user.sub, fields: diff.fields });
    writes.update.push({
      sub: user.sub,
      changes: wasDeleted ? { ...diff.changes, deletedAt: null } : diff.changes,
      currentEmail: current.email,
      wasDeleted,
    });
  }

  for (const current of stored.values()) {
    if (wanted.has(current.sub) || current.deletedAt !== null) continue;
    changes.push({ kind: 'user', action: 'remove', key: current.sub, fields: [] });
    writes.remove.push(current.sub);
  }
  changes.sort(byKey);
  return { changes, writes };
}
