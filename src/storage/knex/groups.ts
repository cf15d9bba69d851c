import type { GroupRepository, MembershipKey } from '../repositories.js';
import type { GroupMembership, GroupRecord } from '../../model/index.js';
import type { Knex } from 'knex';
import { onKnex } from './on-knex.js';
import { isPostgres } from './connect.js';
import { defineTable, tableOf, text, timestamp, type Row } from './define-table.js';
import { groupFields } from '../../model/group-fields.js';
import { inBatches } from './in-batches.js';

const groups = tableOf<GroupRecord, typeof groupFields>('groups', groupFields);

const memberships = defineTable<GroupMembership>('group_members', {
  groupId: ['group_id', text()],
  sub: ['sub', text()],
  source: ['source', text()],
  // '' in the column for the sources that have no provider (migration 0020).
  provider: [
    'provider',
    { encode: (value) => value ?? '', decode: (stored) => (stored === '' ? null : (stored as string)) },
  ],
  createdAt: ['created_at', timestamp],
});

/** A save replaces every column but the key and the creation time. */
const replacedOnSave = groups.columns.filter((column) => column !== 'id' && column !== 'created_at');

/** Keys per statement: four bound parameters each. */
const KEY_BATCH = 200;
const SUB_BATCH = 500;

const keyColumns = ['group_id', 'sub', 'source', 'provider'];
const keyOf = (m: MembershipKey) => `${m.groupId}\n${m.sub}\n${m.source}\n${m.provider ?? ''}`;
const keyValues = (m: MembershipKey) => [m.groupId, m.sub, m.source, m.provider ?? ''];

/**
 * Deletes these memberships and answers the keys of the rows it deleted.
 * knex's SQLite dialect has no DELETE … RETURNING; there, reading the rows
 * first in the same transaction is exact: the one connection runs
 * transactions one at a time, and another process's write in between makes
 * this transaction's write fail (SQLITE_BUSY_SNAPSHOT) rather than count twice.
 */
async function deleteReturningKeys(tx: Knex, batch: MembershipKey[]): Promise<Row[]> {
  const matching = tx('group_members').whereIn(keyColumns, batch.map(keyValues));
  if (isPostgres(tx)) return (await matching.delete().returning(keyColumns)) as Row[];
  const rows = (await matching.clone().select(keyColumns)) as Row[];
  await matching.delete();
  return rows;
}

function unique(keys: MembershipKey[]): MembershipKey[] {
  return [...new Map(keys.map((k) => [keyOf(k), k])).values()];
}

export const knexGroupRepository = onKnex<GroupRepository>({
  async findById(tx, id) {
    const row = (await tx('groups').where({ id }).first()) as Row | undefined;
    return row ? groups.fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = (await tx('groups').orderBy('id')) as Row[];
    return rows.map(groups.fromRow);
  },

  async listWithCounts(tx) {
    const live = tx('group_members as m')
      .join('users as u', 'u.sub', 'm.sub')
      .whereNull('u.deleted_at')
      .groupBy('m.group_id')
      .select('m.group_id')
      .countDistinct({ n: 'm.sub' })
      .as('c');
    const rows = (await tx('groups as g')
      .leftJoin(live, 'c.group_id', 'g.id')
      .select('g.*', 'c.n')
      .orderBy('g.id')) as Row[];
    return rows.map((row) => ({ ...groups.fromRow(row), memberCount: Number(row.n ?? 0) }));
  },

  async save(tx, group) {
    await tx('groups').insert(groups.toRow(group)).onConflict('id').merge(replacedOnSave);
  },

  async delete(tx, id) {
    // Explicitly, not by the cascade alone: SQLite enforces foreign keys only when asked to.
    await tx('group_members').where({ group_id: id }).delete();
    await tx('groups').where({ id }).delete();
  },

  async listMemberships(tx, sources) {
    const rows = (await tx('group_members')
      .whereIn('source', sources)
      .orderBy([{ column: 'group_id' }, { column: 'sub' }, { column: 'source' }, { column: 'provider' }])) as Row[];
    return rows.map(memberships.fromRow);
  },

  async membershipsOf(tx, subs) {
    const found: GroupMembership[] = [];
    for (const batch of inBatches([...new Set(subs)], SUB_BATCH)) {
      const rows = (await tx('group_members').whereIn('sub', batch)) as Row[];
      found.push(...rows.map(memberships.fromRow));
    }
    return found.sort(
      (a, b) =>
        (a.sub < b.sub ? -1 : a.sub > b.sub ? 1 : 0) ||
        (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0) ||
        (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
    );
  },

  async listMembers(tx, groupId, { page, pageSize }) {
    const members = tx('group_members as m')
      .join('users as u', 'u.sub', 'm.sub')
      .where('m.group_id', groupId)
      .whereNull('u.deleted_at');
    const total = (await members.clone().countDistinct({ n: 'm.sub' }).first()) as { n: number | string };
    const rows = (await members
      .clone()
      .distinct('u.sub', 'u.email_normalized')
      .orderBy([{ column: 'u.email_normalized' }, { column: 'u.sub' }])
      .limit(pageSize)
      .offset((page - 1) * pageSize)) as { sub: string }[];
    return { subs: rows.map((r) => r.sub), total: Number(total.n) };
  },

  // Both report only the rows their own statements wrote or deleted (RETURNING): of two transactions
  // racing on one membership, exactly one sees it added (or removed), so one audit event is recorded.
  async addMemberships(tx, keys, now) {
    const wanted = unique(keys);
    const added = new Set<string>();
    for (const batch of inBatches(wanted, KEY_BATCH)) {
      const rows = (await tx('group_members')
        .insert(batch.map((k) => memberships.toRow({ ...k, createdAt: now })))
        .onConflict(keyColumns)
        .ignore()
        .returning(keyColumns)) as Row[];
      for (const row of rows) added.add(keyOf(memberships.fromRow({ ...row, created_at: 0 })));
    }
    return wanted.filter((k) => added.has(keyOf(k)));
  },

  async removeMemberships(tx, keys) {
    const wanted = unique(keys);
    const removed = new Set<string>();
    for (const batch of inBatches(wanted, KEY_BATCH)) {
      for (const row of await deleteReturningKeys(tx, batch))
        removed.add(keyOf(memberships.fromRow({ ...row, created_at: 0 })));
    }
    return wanted.filter((k) => removed.has(keyOf(k)));
  },
});
