import { groupNotFound, memberNotFound, memberNotRemovable, userNotEditable, userNotFound } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { GroupRecord, UserRecord } from '../model/index.js';
import type { UserGroup, UserGroupReader } from '../access/user-groups.js';
import type { GroupRepository, MembershipKey, Tx, UserRepository } from '../storage/repositories.js';
import type { AdminRequestContext } from './admin-users-service.js';
import { requireAdmin } from './require-admin.js';
import type { AdminUserView, UserViewService } from './user-view-service.js';

/** A group as GET /api/admin/groups lists it: its live members from every source counted once. */
export interface GroupSummaryView {
  id: string;
  name: string;
  description: string | null;
  memberCount: number;
}

/**
 * Groups and their members through the admin API (docs/http-api.md,
 * "Groups and access"). Groups are config-managed: the API only reads them.
 * It adds and removes memberships of source `database`, and only for
 * database-managed live users: a config user's memberships come from the
 * file alone, and upstream ones are replaced at each sign-in through the
 * provider. Order of checks: admin (403 FORBIDDEN) → group (404
 * GROUP_NOT_FOUND) → user (404 USER_NOT_FOUND) → user editable (403
 * USER_NOT_EDITABLE) → membership (404 MEMBER_NOT_FOUND, removal only).
 */
export interface AdminGroupsService {
  list(caller: UserRecord): Promise<GroupSummaryView[]>;
  /** The group as declared (404 GROUP_NOT_FOUND), for the console's group page. */
  find(caller: UserRecord, groupId: string): Promise<GroupRecord>;
  /** One page of the group's live members (any source), ordered by e-mail then sub. */
  members(
    caller: UserRecord,
    groupId: string,
    page: { page: number; pageSize: number },
  ): Promise<{ users: AdminUserView[]; total: number }>;
  /** Idempotent: a membership already there changes and records nothing. */
  addMember(caller: UserRecord, groupId: string, sub: string, context: AdminRequestContext): Promise<void>;
  /** Removes the `database` membership; the file's and upstream ones are not the API's to remove. */
  removeMember(caller: UserRecord, groupId: string, sub: string, context: AdminRequestContext): Promise<void>;
  /** Every (group, source) of the user, ordered by group id then source; soft-deleted users too. */
  groupsOf(caller: UserRecord, sub: string): Promise<UserGroup[]>;
}

export function createAdminGroupsService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  groups: GroupRepository;
  users: UserRepository;
  views: UserViewService;
  userGroups: UserGroupReader;
  events: EventLog;
  clock: Clock;
}): AdminGroupsService {
  const { groups, users, events } = deps;

  const requireGroup = async (tx: Tx, id: string) => {
    const group = await groups.findById(tx, id);
    if (!group) throw groupNotFound();
    return group;
  };
  const requireUser = async (tx: Tx, sub: string) => {
    const user = await users.findBySub(tx, sub);
    if (!user) throw userNotFound();
    return user;
  };
  /** The membership the API owns; the user must be one whose memberships the API may change. */
  const editableMembership = async (tx: Tx, groupId: string, sub: string): Promise<MembershipKey> => {
    await requireGroup(tx, groupId);
    const user = await requireUser(tx, sub);
    if (user.managedBy !== 'database' || user.deletedAt !== null) throw userNotEditable();
    return { groupId, sub, source: 'database', provider: null };
  };

  return {
    async list(caller) {
      requireAdmin(caller);
      const summaries = await groups.listWithCounts(deps.db);
      return summaries.map((g) => ({ id: g.id, name: g.name, description: g.description, memberCount: g.memberCount }));
    },

    async find(caller, groupId) {
      requireAdmin(caller);
      return requireGroup(deps.db, groupId);
    },

    async members(caller, groupId, page) {
      requireAdmin(caller);
      await requireGroup(deps.db, groupId);
      const { subs, total } = await groups.listMembers(deps.db, groupId, page);
      const bySub = new Map((await users.findBySubs(deps.db, subs)).map((u) => [u.sub, u]));
      // A member erased between the two reads is left out rather than failing the page.
      const found = subs.map((sub) => bySub.get(sub)).filter((u): u is UserRecord => u !== undefined);
      return { users: await deps.views.adminUsers(found), total };
    },

    async addMember(caller, groupId, sub, context) {
      requireAdmin(caller);
      await deps.transaction(async (tx) => {
        const membership = await editableMembership(tx, groupId, sub);
        const added = await groups.addMemberships(tx, [membership], deps.clock.now());
        if (added.length === 0) return;
        await events.record(tx, {
          type: 'group.member_added',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
          detail: { group: groupId },
        });
      });
    },

    async removeMember(caller, groupId, sub, context) {
      requireAdmin(caller);
      await deps.transaction(async (tx) => {
        const membership = await editableMembership(tx, groupId, sub);
        const removed = await groups.removeMemberships(tx, [membership]);
        if (removed.length === 0) {
          const other = (await groups.membershipsOf(tx, [sub])).some((m) => m.groupId === groupId);
          throw other ? memberNotRemovable() : memberNotFound();
        }
        await events.record(tx, {
          type: 'group.member_removed',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
          detail: { group: groupId },
        });
      });
    },

    async groupsOf(caller, sub) {
      requireAdmin(caller);
      await requireUser(deps.db, sub);
      return deps.userGroups.list(sub);
    },
  };
}
