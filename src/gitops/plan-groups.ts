import type { GroupConfig } from '../config/types.js';
import type { GroupMembership, GroupRecord, UpstreamGroupRule } from '../model/index.js';
import type { MembershipKey } from '../storage/repositories.js';
import { byKey, diffFields, listFields, plannedFields } from './field-spec.js';
import { groupFields } from '../model/group-fields.js';
import type { EntityField } from '../model/entity-fields.js';
import type { Change, MemberChanges, PlanWrites } from './plan.js';

type DesiredGroup = Omit<GroupRecord, 'createdAt' | 'updatedAt'>;

const plannedGroupFields = plannedFields<DesiredGroup>(groupFields as readonly EntityField<DesiredGroup>[]);

/** Keys in one order, whatever order the file wrote them in: a reordered rule is not a change. */
function canonicalRule(rule: UpstreamGroupRule): UpstreamGroupRule {
  return 'team' in rule
    ? { provider: rule.provider, team: rule.team }
    : { provider: rule.provider, claim: rule.claim, value: rule.value };
}

function toDesired(group: GroupConfig): DesiredGroup {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    upstream: group.upstream.map(canonicalRule),
  };
}

const configMembership = (groupId: string, sub: string): MembershipKey => ({
  groupId,
  sub,
  source: 'config',
  provider: null,
});

/**
 * Config groups against the database's groups, and the file's memberships
 * (`members`, `users[].groups`, resolved to config subs) against the
 * database's `config` memberships (docs/gitops.md, "Groups and
 * memberships"). Every group is config-managed: one that left the file is
 * removed with every membership of it, whatever its source. Database and
 * upstream memberships are never compared, let alone changed.
 */
export function planGroups(
  groups: GroupConfig[],
  stored: GroupRecord[],
  configMemberships: GroupMembership[],
): { changes: Change[]; writes: Pick<PlanWrites, 'groups' | 'memberships'> } {
  const storedById = new Map(stored.map((g) => [g.id, g]));
  const membersOf = new Map<string, Set<string>>();
  for (const m of configMemberships) {
    const members = membersOf.get(m.groupId) ?? new Set<string>();
    members.add(m.sub);
    membersOf.set(m.groupId, members);
  }
  const changes: Change[] = [];
  const writes: Pick<PlanWrites, 'groups' | 'memberships'> = {
    groups: { save: [], remove: [] },
    memberships: { add: [], remove: [] },
  };
  const wanted = new Set<string>();

  for (const group of groups) {
    wanted.add(group.id);
    const desired = toDesired(group);
    const current = storedById.get(group.id);
    const before = membersOf.get(group.id) ?? new Set<string>();
    const after = new Set(group.members);
    const members: MemberChanges = {
      added: group.members.filter((sub) => !before.has(sub)),
      removed: [...before].filter((sub) => !after.has(sub)).sort(),
    };
    writes.memberships.add.push(...members.added.map((sub) => configMembership(group.id, sub)));
    writes.memberships.remove.push(...members.removed.map((sub) => configMembership(group.id, sub)));
    if (!current) {
      const fields = [...listFields(plannedGroupFields, desired), { field: 'members', old: null, new: group.members }];
      changes.push({ kind: 'group', action: 'create', key: group.id, fields });
      writes.groups.save.push(desired);
      continue;
    }
    const diff = diffFields(plannedGroupFields, current, desired);
    const membersChanged = members.added.length + members.removed.length > 0;
    if (diff.fields.length === 0 && !membersChanged) continue;
    changes.push({
      kind: 'group',
      action: 'update',
      key: group.id,
      fields: diff.fields,
      ...(membersChanged ? { members } : {}),
    });
    if (diff.fields.length > 0) writes.groups.save.push(desired);
  }

  for (const current of stored) {
    if (wanted.has(current.id)) continue;
    changes.push({ kind: 'group', action: 'remove', key: current.id, fields: [] });
    writes.groups.remove.push(current.id);
    // Removed explicitly, for their events; the group's delete takes the other sources' memberships.
    const members = [...(membersOf.get(current.id) ?? [])].sort();
    writes.memberships.remove.push(...members.map((sub) => configMembership(current.id, sub)));
  }
  changes.sort(byKey);
  return { changes, writes };
}
