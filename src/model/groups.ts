import type { UserRole } from './users.js';

/**
 * Membership asserted by an upstream identity provider at each sign-in
 * through it: a claim value of an OpenID or generic upstream (a string or
 * one element of an array), or a GitHub team `org/team`.
 */
export type UpstreamGroupRule = { provider: string; claim: string; value: string } | { provider: string; team: string };

/** A group of the config file (`groups`): every group is config-managed. */
export interface GroupRecord {
  /** `[a-z0-9][a-z0-9._-]{0,63}`, the value of the `groups` claim. */
  id: string;
  /** Defaults to the id. */
  name: string;
  description: string | null;
  upstream: UpstreamGroupRule[];
  createdAt: number;
  updatedAt: number;
}

/**
 * Where a membership comes from: the file (config users only), the admin
 * API (database users only), or an upstream provider (replaced at each
 * sign-in through it).
 */
export type MembershipSource = 'config' | 'database' | 'upstream';

export interface GroupMembership {
  groupId: string;
  sub: string;
  source: MembershipSource;
  /** The upstream provider's id for source `upstream`; null otherwise. */
  provider: string | null;
  createdAt: number;
}

/**
 * Who may use a client (`clients[].access`); null on the client: every
 * active user. A user passes when in any of `groups` (when given) and of one
 * of `roles` (when given); `secondFactor` asks for otp or hwk in amr.
 */
export interface ClientAccess {
  groups: string[] | null;
  roles: UserRole[] | null;
  secondFactor: 'required' | null;
}
