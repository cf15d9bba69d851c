import type { MembershipSource } from '../model/index.js';
import type { GroupRepository, Tx } from '../storage/repositories.js';

/** One (group, source) pair of a user: the group's id and name, and where the membership comes from. */
export interface UserGroup {
  id: string;
  name: string;
  source: MembershipSource;
}

/**
 * The groups a user is in, for people to read (GET /api/user/groups on
 * /account, the consent page); the `groups` claim takes the ids alone from
 * CachedReads.groupsOf.
 */
export interface UserGroupReader {
  /**
   * One entry per group and source, ordered by group id then source: a
   * group the user is in through the file and an upstream shows twice, and
   * upstream memberships through several providers once.
   */
  list(sub: string): Promise<UserGroup[]>;
  /** Each group once, by name (then id), whatever its sources: what the consent page names. */
  names(sub: string): Promise<{ id: string; name: string }[]>;
}

export function createUserGroupReader(deps: { db: Tx; groups: GroupRepository }): UserGroupReader {
  const { db, groups } = deps;
  async function list(sub: string): Promise<UserGroup[]> {
    const memberships = await groups.membershipsOf(db, [sub]);
    if (memberships.length === 0) return [];
    const sources = new Map<string, Set<MembershipSource>>();
    for (const m of memberships) sources.set(m.groupId, (sources.get(m.groupId) ?? new Set()).add(m.source));
    return (await groups.listAll(db)).flatMap((group) =>
      [...(sources.get(group.id) ?? [])].sort().map((source) => ({ id: group.id, name: group.name, source })),
    );
  }
  return {
    list,
    async names(sub) {
      const named = new Map((await list(sub)).map((group) => [group.id, group.name]));
      // A stable sort of a list in id order: groups of the same name stay in id order.
      return [...named].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}
