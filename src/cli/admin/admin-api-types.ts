/**
 * The wire shapes of the admin API as docs/http-api.md ("Admin API") states them (snake_case, as
 * the server sends them). The CLI prints them as is under --json.
 */

import type { ManagedBy, MembershipSource, UserRole } from '../../model/index.js';

/** The eleven fields of the session user (docs/http-api.md, "Admin API"). */
export interface SessionUser {
  managed_by: ManagedBy;
  sub: string;
  email: string;
  role: UserRole;
  email_verified: boolean;
  email_verification_required: boolean;
  has_password: boolean;
  totp_registered: boolean;
  totp_recovery_codes_missing: boolean;
  second_factor_required: boolean;
  passkey_count: number;
}

/** The admin user: the session user plus deleted_at (ISO 8601 UTC or null). */
export interface AdminUser extends SessionUser {
  deleted_at: string | null;
}

/** The pagination object of the admin API. */
export interface Pagination {
  page: number;
  page_size: number;
  total: number;
}

export interface UserListResponse {
  users: AdminUser[];
  pagination: Pagination;
}

/** The query of GET /api/admin/users, every parameter optional. */
export interface ListUsersParams {
  query?: string;
  page?: number;
  page_size?: number;
  include_deleted?: boolean;
  managed_by?: ManagedBy;
  role?: UserRole;
}

/** The body of POST /api/admin/users. */
export interface CreateUserBody {
  email: string;
  password: string;
  role?: UserRole;
  email_verified?: boolean;
}

/** The body of PATCH /api/admin/users/{sub}. */
export interface UpdateUserBody {
  email?: string;
  role?: UserRole;
  email_verified?: boolean;
}

/** docs/http-api.md, "Conventions": `{ code, message }`, plus `details` on VALIDATION_ERROR. */
export interface ApiErrorBody {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
}

/** One audit event (GET /api/admin/events; docs/http-api.md, "Audit events"). */
export interface AuditEvent {
  id: number;
  time: string;
  type: string;
  actor: string;
  /** The e-mail of the user holding the actor's sub, when one does. */
  actor_email: string | null;
  subject: string | null;
  subject_email: string | null;
  client_address: string | null;
  client_id: string | null;
  detail: Record<string, unknown>;
}

/** GET /api/admin/locked-users: the users the login rate limit blocks now. */
export interface LockedUsersResponse {
  users: { sub: string; locked_until: string }[];
}

export interface EventListResponse {
  events: AuditEvent[];
  pagination: Pagination;
}

export interface ListEventsParams {
  type?: string;
  actor?: string;
  subject?: string;
  since?: string;
  until?: string;
  page?: number;
  page_size?: number;
}

/** One group of GET /api/admin/groups (docs/http-api.md, "Groups and access"). */
export interface AdminGroup {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
}

export interface GroupListResponse {
  groups: AdminGroup[];
}

/** The query of GET /api/admin/groups/{id}/members. */
export interface ListMembersParams {
  page?: number;
  page_size?: number;
}

/** One (group, source) pair of GET /api/admin/users/{sub}/groups. */
export interface UserGroup {
  id: string;
  name: string;
  source: MembershipSource;
}

export interface UserGroupsResponse {
  groups: UserGroup[];
}

/** GET /api/admin/clients/{client_id}/access: the decision and why, one sentence per rule. */
export interface AccessDecisionResponse {
  allowed: boolean;
  reasons: string[];
}
