import type { ClientRecord, GroupRecord, IdentityProviderRecord, TermRecord, UserRecord } from '../model/index.js';
import type { MembershipKey } from '../storage/repositories.js';

/** The kinds of config-managed objects, in the order a plan lists them (the order of the config groups, docs/configuration.md). */
export const changeKinds = ['identity_provider', 'client', 'user', 'group', 'term'] as const;
export type ChangeKind = (typeof changeKinds)[number];
export type ChangeAction = 'create' | 'update' | 'remove';

/** What a plan shows in place of a secret or a hash of one. */
export const SENSITIVE = '(sensitive)';

export type PlanValue = string | number | boolean | null | string[] | Record<string, unknown>;

/** One field of one object, named as in the config file (snake_case). */
export interface FieldChange {
  field: string;
  old: PlanValue;
  new: PlanValue;
}

export interface Change {
  kind: ChangeKind;
  action: ChangeAction;
  /** sub, client_id or id. */
  key: string;
  /** create: every field (old is null); update: the changed fields; remove: none. */
  fields: FieldChange[];
  /** A group's update: the config members it gains and loses (subs, sorted); absent when they stay. */
  members?: MemberChanges;
}

export interface MemberChanges {
  added: string[];
  removed: string[];
}

/**
 * One live user whose access to one client changes with the plan (the
 * plan's access section): `lose` counts the active grants apply revokes,
 * `gain` counts none (null).
 */
export interface AccessChange {
  clientId: string;
  sub: string;
  email: string;
  change: 'gain' | 'lose';
  activeGrants: number | null;
}

export interface PlanSummary {
  create: number;
  update: number;
  remove: number;
}

type Desired<T> = Omit<T, 'createdAt' | 'updatedAt'>;
export type DesiredUser = Omit<Desired<UserRecord>, 'deletedAt'>;

/** What applyConfig writes. Never rendered: it holds secret hashes. */
export interface PlanWrites {
  users: {
    create: DesiredUser[];
    update: {
      sub: string;
      changes: Partial<DesiredUser> & { deletedAt?: null };
      currentEmail: string;
      wasDeleted: boolean;
    }[];
    /** Config users that left the file: soft-deleted, grants revoked. */
    remove: string[];
  };
  clients: {
    create: Desired<ClientRecord>[];
    update: { clientId: string; changes: Partial<Desired<ClientRecord>> }[];
    remove: string[];
  };
  groups: { save: Desired<GroupRecord>[]; remove: string[] };
  /** Config memberships only: database and upstream ones go only with their group. */
  memberships: { add: MembershipKey[]; remove: MembershipKey[] };
  /** Database and upstream memberships of removed groups (they go with the group), for their events. */
  removedWithGroups: MembershipKey[];
  /** Users who stay but lose a client: their grants for it are revoked. */
  revocations: { clientId: string; subs: string[] }[];
  terms: { save: Desired<TermRecord>[]; remove: string[] };
  identityProviders: { save: Desired<IdentityProviderRecord>[]; remove: string[] };
}

export interface Plan {
  /** Ordered by kind (changeKinds), then key. */
  changes: Change[];
  summary: PlanSummary;
  /** Ordered by client, losses first, then sub. */
  access: AccessChange[];
  writes: PlanWrites;
}

export function summarize(changes: Change[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, remove: 0 };
  for (const change of changes) summary[change.action]++;
  return summary;
}
