/** Groups, config-managed (src/gitops), and their memberships with the source of each (src/access). */
import type { GroupMembership, GroupRecord, MembershipSource } from '../../model/index.js';
import type { Tx } from './tx.js';

/** A group with how many distinct live users are in it (from any source). */
export interface GroupSummary extends GroupRecord {
  memberCount: number;
}

/** One membership to add or remove; `provider` is the upstream's id for source `upstream`, else null. */
export interface MembershipKey {
  groupId: string;
  sub: string;
  source: MembershipSource;
  provider: string | null;
}

export interface GroupRepository {
  findById(tx: Tx, id: string): Promise<GroupRecord | null>;
  /** Every group, ordered by id. */
  listAll(tx: Tx): Promise<GroupRecord[]>;
  /** Every group with its count of distinct live members, ordered by id. */
  listWithCounts(tx: Tx): Promise<GroupSummary[]>;
  /** Inserts or replaces the group (its memberships stay). */
  save(tx: Tx, group: GroupRecord): Promise<void>;
  /** Removes the group and, with it, every membership of it. */
  delete(tx: Tx, id: string): Promise<void>;

  /** Every membership of these sources, ordered by group, sub (apply's plan reads them once). */
  listMemberships(tx: Tx, sources: MembershipSource[]): Promise<GroupMembership[]>;
  /** Every membership of these users (any source), ordered by sub, group; in batches. */
  membershipsOf(tx: Tx, subs: string[]): Promise<GroupMembership[]>;
  /**
   * One page of the distinct live users in a group (any source), ordered by
   * e-mail (case-insensitive) then sub, with how many there are in all.
   */
  listMembers(
    tx: Tx,
    groupId: string,
    page: { page: number; pageSize: number },
  ): Promise<{ subs: string[]; total: number }>;
  /**
   * Adds the memberships that are not there yet; returns those it added.
   * Of two transactions adding the same membership at once, only one gets it back.
   */
  addMemberships(tx: Tx, memberships: MembershipKey[], now: number): Promise<MembershipKey[]>;
  /**
   * Removes these memberships; returns those that were there. Of two
   * transactions removing the same membership at once, only one gets it back.
   */
  removeMemberships(tx: Tx, memberships: MembershipKey[]): Promise<MembershipKey[]>;
}
