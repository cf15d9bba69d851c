import type { MembershipSource } from '../../src/model/index.js';
import type { Storage } from '../../src/storage/repositories.js';

/**
 * Puts users into a group through the repository (saving the group first),
 * for tests of what memberships decide; `leaveGroup` takes them out again.
 */
export async function joinGroup(
  storage: Pick<Storage, 'db' | 'repositories'>,
  groupId: string,
  subs: string[],
  source: MembershipSource = 'config',
): Promise<void> {
  const { groups } = storage.repositories;
  if (!(await groups.findById(storage.db, groupId)))
    await groups.save(storage.db, {
      id: groupId,
      name: groupId,
      description: null,
      upstream: [],
      createdAt: 0,
      updatedAt: 0,
    });
  await groups.addMemberships(
    storage.db,
    subs.map((sub) => ({ groupId, sub, source, provider: null })),
    Date.now(),
  );
}

export async function leaveGroup(
  storage: Pick<Storage, 'db' | 'repositories'>,
  groupId: string,
  subs: string[],
  source: MembershipSource = 'config',
): Promise<void> {
  await storage.repositories.groups.removeMemberships(
    storage.db,
    subs.map((sub) => ({ groupId, sub, source, provider: null })),
  );
}
