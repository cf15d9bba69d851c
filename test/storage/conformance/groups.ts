import { beforeAll, expect, it } from 'vitest';
import type { GroupRepository, MembershipKey, Tx, UserRepository } from '../../../src/storage/repositories.js';
import type { GroupRecord } from '../../../src/model/index.js';
import type { Subject } from './subject.js';
import { userRecord } from './records.js';

function group(id: string, overrides: Partial<GroupRecord> = {}): GroupRecord {
  return {
    id,
    name: id.toUpperCase(),
    description: null,
    upstream: [],
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

const member = (
  groupId: string,
  sub: string,
  source: MembershipKey['source'] = 'config',
  provider: string | null = null,
) => ({ groupId, sub, source, provider }) satisfies MembershipKey;

export function describeGroups(s: Subject): void {
  let groups: GroupRepository;
  let users: UserRepository;
  let db: Tx;
  beforeAll(async () => {
    ({
      db,
      repositories: { groups, users },
    } = s);
    for (const sub of ['g-ann', 'g-bob', 'g-cid']) await users.insert(db, userRecord(sub));
  });

  it('saves a group with its upstream rules, replaces it, and lists groups by id', async () => {
    const sre = group('g.sre', {
      description: 'On call',
      upstream: [
        { provider: 'corp', claim: 'groups', value: 'sre' },
        { provider: 'github', team: 'acme/sre' },
      ],
    });
    await groups.save(db, sre);
    await groups.save(db, group('g.dev'));
    expect(await groups.findById(db, 'g.sre')).toEqual(sre);
    await groups.save(db, { ...sre, name: 'SRE', upstream: [], createdAt: 5000, updatedAt: 5000 });
    expect(await groups.findById(db, 'g.sre')).toEqual({ ...sre, name: 'SRE', upstream: [], updatedAt: 5000 });
    expect((await groups.listAll(db)).filter((g) => g.id.startsWith('g.')).map((g) => g.id)).toEqual([
      'g.dev',
      'g.sre',
    ]);
    expect(await groups.findById(db, 'g.none')).toBeNull();
  });

  it('adds memberships once per source, removes only those there, and counts distinct live members', async () => {
    const added = await groups.addMemberships(
      db,
      [
        member('g.sre', 'g-ann'),
        member('g.sre', 'g-ann'),
        member('g.sre', 'g-ann', 'upstream', 'corp'),
        member('g.sre', 'g-bob', 'database'),
        member('g.dev', 'g-cid', 'upstream', 'github'),
      ],
      2000,
    );
    expect(added).toHaveLength(4);
    expect(await groups.addMemberships(db, [member('g.sre', 'g-ann')], 3000)).toEqual([]);

    expect(await groups.membershipsOf(db, ['g-ann', 'g-cid'])).toEqual([
      { groupId: 'g.sre', sub: 'g-ann', source: 'config', provider: null, createdAt: 2000 },
      { groupId: 'g.sre', sub: 'g-ann', source: 'upstream', provider: 'corp', createdAt: 2000 },
      { groupId: 'g.dev', sub: 'g-cid', source: 'upstream', provider: 'github', createdAt: 2000 },
    ]);
    expect((await groups.listMemberships(db, ['database'])).map((m) => [m.groupId, m.sub])).toEqual([
      ['g.sre', 'g-bob'],
    ]);

    const counts = Object.fromEntries((await groups.listWithCounts(db)).map((g) => [g.id, g.memberCount]));
    expect(counts).toMatchObject({ 'g.sre': 2, 'g.dev': 1 });
    expect(await groups.listMembers(db, 'g.sre', { page: 1, pageSize: 1 })).toEqual({ subs: ['g-ann'], total: 2 });
    expect(await groups.listMembers(db, 'g.sre', { page: 2, pageSize: 1 })).toEqual({ subs: ['g-bob'], total: 2 });

    // A soft-deleted user is not counted or listed, but keeps the membership for a restore.
    await users.update(db, 'g-bob', { deletedAt: 4000 });
    expect((await groups.listMembers(db, 'g.sre', { page: 1, pageSize: 10 })).subs).toEqual(['g-ann']);
    expect((await groups.listWithCounts(db)).find((g) => g.id === 'g.sre')?.memberCount).toBe(1);
    await users.update(db, 'g-bob', { deletedAt: null });

    const removed = await groups.removeMemberships(db, [
      member('g.sre', 'g-ann', 'upstream', 'corp'),
      member('g.sre', 'g-ann', 'upstream', 'other'),
    ]);
    expect(removed).toEqual([member('g.sre', 'g-ann', 'upstream', 'corp')]);
    expect((await groups.membershipsOf(db, ['g-ann'])).map((m) => m.source)).toEqual(['config']);
  });

  it('bumps the cache generation on every membership change, and drops memberships with their group', async () => {
    const before = await s.repositories.cacheGeneration.read(db);
    await groups.addMemberships(db, [member('g.dev', 'g-ann', 'database')], 6000);
    const afterAdd = await s.repositories.cacheGeneration.read(db);
    expect(afterAdd).toBeGreaterThan(before);
    await groups.removeMemberships(db, [member('g.dev', 'g-ann', 'database')]);
    expect(await s.repositories.cacheGeneration.read(db)).toBeGreaterThan(afterAdd);

    await groups.delete(db, 'g.dev');
    expect(await groups.findById(db, 'g.dev')).toBeNull();
    expect((await groups.membershipsOf(db, ['g-cid'])).length).toBe(0);
  });

  it('handles a few thousand memberships in batches', async () => {
    await groups.save(db, group('g.big'));
    const subs = Array.from({ length: 1200 }, (_, i) => `g-many-${String(i).padStart(4, '0')}`);
    await users.insertMany(
      db,
      subs.map((sub) => userRecord(sub)),
    );
    const keys = subs.map((sub) => member('g.big', sub));
    expect(await groups.addMemberships(db, keys, 7000)).toHaveLength(1200);
    expect((await groups.membershipsOf(db, subs)).length).toBe(1200);
    expect(await groups.removeMemberships(db, keys)).toHaveLength(1200);
  });

  it('reports a membership added or removed by two racing transactions to exactly one of them', async () => {
    const key = member('g.sre', 'g-cid', 'database');
    const race = async (change: (tx: Tx) => Promise<MembershipKey[]>) => {
      let firstDone!: () => void;
      const firstChanged = new Promise<void>((resolve) => (firstDone = resolve));
      // The first holds its uncommitted change while the second makes the same one (PostgreSQL: the second waits on it).
      const first = s.storage.transaction(async (tx) => {
        const result = await change(tx);
        firstDone();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return result;
      });
      await firstChanged;
      const second = s.storage.transaction(change);
      return [(await first).length, (await second).length];
    };
    expect(await race((tx) => groups.addMemberships(tx, [key], 8000))).toEqual([1, 0]);
    expect(await race((tx) => groups.removeMemberships(tx, [key]))).toEqual([1, 0]);
    expect(await groups.membershipsOf(db, ['g-cid'])).toEqual([]);
  });
}
