import {
  emailAlreadyExists,
  forbidden,
  restorePeriodEnded,
  userNotDeleted,
  userNotEditable,
  userNotFound,
} from '../api-error.js';
import type { Clock } from '../clock.js';
import { insertNewUser, newDatabaseUser } from '../accounts/new-user.js';
import type { EventLog } from '../events/index.js';
import type { SecondFactorReset } from '../accounts/second-factor-reset.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord, UserRole, ManagedBy } from '../model/index.js';
import type { AdminUserView, UserViewService } from './user-view-service.js';

/**
 * The rules of the admin API (docs/http-api.md, "Admin API"). Every operation takes
 * the calling user and checks, in order: the caller is an admin (403
 * FORBIDDEN) → the target exists (404 USER_NOT_FOUND) → the target may be
 * changed (403 USER_NOT_EDITABLE: config-managed, soft-deleted, or the
 * caller demoting or deleting themself) → the e-mail is free (409
 * EMAIL_ALREADY_EXISTS). Decisions are written down in docs/http-api.md.
 */
export interface ListUsersInput {
  query?: string;
  page: number;
  pageSize: number;
  includeDeleted: boolean;
  managedBy?: ManagedBy;
  role?: UserRole;
}

export interface CreateUserInput {
  email: string;
  password: string;
  role: UserRole;
  emailVerified: boolean;
}

export interface UpdateUserInput {
  email?: string;
  role?: UserRole;
  emailVerified?: boolean;
}

/** Where an admin's request came from, for the audit event it leaves. */
export interface AdminRequestContext {
  clientAddress: string;
}

export interface AdminUsersService {
  list(caller: UserRecord, input: ListUsersInput): Promise<{ users: AdminUserView[]; total: number }>;
  get(caller: UserRecord, sub: string): Promise<AdminUserView>;
  create(caller: UserRecord, input: CreateUserInput, context: AdminRequestContext): Promise<AdminUserView>;
  update(caller: UserRecord, sub: string, input: UpdateUserInput, context: AdminRequestContext): Promise<AdminUserView>;
  /** Soft delete; revokes the user's sessions in the same transaction. */
  delete(caller: UserRecord, sub: string, context: AdminRequestContext): Promise<AdminUserView>;
  /**
   * Undoes a soft delete of a database-managed user within
   * account_deletion.grace_period_days (409 USER_NOT_DELETED when not
   * deleted, 409 RESTORE_PERIOD_ENDED after it, 403 USER_NOT_EDITABLE for a
   * config-managed user: the file brings those back, 409
   * EMAIL_ALREADY_EXISTS when another live user has taken the address).
   */
  restore(caller: UserRecord, sub: string, context: AdminRequestContext): Promise<AdminUserView>;
  /** The moment a deleted user's grace period ends (cleanup erases it after); null for a live or config user, or once it has ended. */
  restorableUntil(user: AdminUserView): number | null;
  /**
   * Removes the user's authenticator app, recovery codes and passkeys and
   * ends their sessions (a lost device). Any user, config-managed too: personal
   * credentials are the user's own on every account (docs/http-api.md, "For admins").
   */
  resetSecondFactors(caller: UserRecord, sub: string, context: AdminRequestContext): Promise<void>;
}

export function createAdminUsersService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  views: UserViewService;
  /** Revokes every grant of a user (sessions now; tokens when they exist). */
  revokeUser(tx: Tx, sub: string): Promise<void>;
  /** Removes a user's second factors and sessions (src/accounts, createSecondFactorReset). */
  resetSecondFactors: SecondFactorReset;
  hashPassword(plain: string): Promise<string>;
  events: EventLog;
  clock: Clock;
  /** account_deletion.grace_period_days in ms: how long a deleted user can be restored. */
  restoreGraceMs: number;
}): AdminUsersService {
  const { users, views, clock, events } = deps;

  const requireAdmin = (caller: UserRecord) => {
    if (caller.role !== 'admin' || caller.deletedAt !== null) throw forbidden();
  };
  const requireUser = async (tx: Tx, sub: string) => {
    const user = await users.findBySub(tx, sub);
    if (!user) throw userNotFound();
    return user;
  };
  const requireEditable = (user: UserRecord) => {
    if (user.managedBy !== 'database' || user.deletedAt !== null) throw userNotEditable();
  };
  const requireFreeEmail = async (tx: Tx, email: string, ownSub?: string) => {
    const holder = await users.findLiveByEmail(tx, email);
    if (holder && holder.sub !== ownSub) throw emailAlreadyExists();
  };

  return {
    async list(caller, input) {
      requireAdmin(caller);
      const page = await users.list(deps.db, input);
      return { users: await views.adminUsers(page.users), total: page.total };
    },

    async get(caller, sub) {
      requireAdmin(caller);
      return views.adminUser(await requireUser(deps.db, sub));
    },

    async create(caller, input, context) {
      requireAdmin(caller);
      // Hash outside the transaction: argon2 takes tens of milliseconds.
      const passwordHash = await deps.hashPassword(input.password);
      const user = await deps.transaction(async (tx) => {
        await requireFreeEmail(tx, input.email);
        const now = clock.now();
        // An admin vouches for the address they typed (docs/http-api.md).
        const created = newDatabaseUser(
          {
            email: input.email,
            role: input.role,
            emailVerified: input.emailVerified,
            emailVerificationRequired: false,
            passwordHash,
          },
          now,
        );
        await insertNewUser(users, tx, created);
        await events.record(tx, {
          type: 'admin.user_created',
          actor: caller.sub,
          subject: created.sub,
          clientAddress: context.clientAddress,
          detail: { role: created.role },
        });
        return created;
      });
      return views.adminUser(user);
    },

    async update(caller, sub, input, context) {
      requireAdmin(caller);
      const user = await deps.transaction(async (tx) => {
        const target = await requireUser(tx, sub);
        requireEditable(target);
        if (target.sub === caller.sub && input.role !== undefined && input.role !== target.role)
          throw userNotEditable();
        if (input.email !== undefined) await requireFreeEmail(tx, input.email, target.sub);
        const changes: Partial<UserRecord> = {};
        if (input.email !== undefined) changes.email = input.email;
        if (input.role !== undefined) changes.role = input.role;
        if (input.emailVerified !== undefined) changes.emailVerified = input.emailVerified;
        if (Object.keys(changes).length === 0) return target;
        const fields = Object.keys(changes).map((field) => (field === 'emailVerified' ? 'email_verified' : field));
        changes.updatedAt = clock.now();
        await users.update(tx, sub, changes);
        await events.record(tx, {
          type: 'admin.user_updated',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
          detail: { fields },
        });
        return { ...target, ...changes };
      });
      return views.adminUser(user);
    },

    async delete(caller, sub, context) {
      requireAdmin(caller);
      const user = await deps.transaction(async (tx) => {
        const target = await requireUser(tx, sub);
        if (target.managedBy !== 'database') throw userNotEditable();
        // Deleting twice is harmless: the first deletion time stands.
        if (target.deletedAt !== null) return target;
        if (target.sub === caller.sub) throw userNotEditable();
        const now = clock.now();
        await users.update(tx, sub, { deletedAt: now, updatedAt: now });
        await deps.revokeUser(tx, sub);
        await events.record(tx, {
          type: 'admin.user_deleted',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
        });
        return { ...target, deletedAt: now, updatedAt: now };
      });
      return views.adminUser(user);
    },

    async restore(caller, sub, context) {
      requireAdmin(caller);
      const user = await deps.transaction(async (tx) => {
        const target = await requireUser(tx, sub);
        if (target.managedBy !== 'database') throw userNotEditable();
        if (target.deletedAt === null) throw userNotDeleted();
        if (clock.now() - target.deletedAt > deps.restoreGraceMs) throw restorePeriodEnded();
        await requireFreeEmail(tx, target.email);
        const now = clock.now();
        await users.update(tx, sub, { deletedAt: null, updatedAt: now });
        await events.record(tx, {
          type: 'admin.user_restored',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
        });
        return { ...target, deletedAt: null, updatedAt: now };
      });
      return views.adminUser(user);
    },

    restorableUntil(user) {
      if (user.managedBy !== 'database' || user.deletedAt === null) return null;
      const until = Date.parse(user.deletedAt) + deps.restoreGraceMs;
      return until >= clock.now() ? until : null;
    },

    async resetSecondFactors(caller, sub, context) {
      requireAdmin(caller);
      await deps.transaction(async (tx) => {
        await requireUser(tx, sub);
        const removed = await deps.resetSecondFactors(tx, sub);
        await events.record(tx, {
          type: 'second_factor.reset_by_admin',
          actor: caller.sub,
          subject: sub,
          clientAddress: context.clientAddress,
          detail: { totp: removed.totp, passkeys: removed.passkeys },
        });
      });
    },
  };
}
