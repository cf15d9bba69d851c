import type { AuthConfig } from '../config/types.js';
import type { UserRecord } from '../model/index.js';
import {
  isSecondFactorRequired,
  noFactors,
  type UserFactorReader,
  type UserFactorSummary,
} from '../accounts/login-second-factors.js';

/** The session user, eleven fields (docs/http-api.md, "Admin API"). */
export interface SessionUserView {
  managedBy: UserRecord['managedBy'];
  sub: string;
  email: string;
  role: UserRecord['role'];
  emailVerified: boolean;
  emailVerificationRequired: boolean;
  hasPassword: boolean;
  totpRegistered: boolean;
  totpRecoveryCodesMissing: boolean;
  secondFactorRequired: boolean;
  passkeyCount: number;
}

/** The admin user (docs/http-api.md, "Admin API"): the session user plus deleted_at (ISO 8601 UTC, Z) or null. */
export interface AdminUserView extends SessionUserView {
  deletedAt: string | null;
}

/**
 * The profile (docs/http-api.md, "Your own account"; GET /api/user), the session user plus the
 * profile fields (null when not given), the recovery codes left and when
 * the account was created (ISO 8601 UTC, Z).
 */
export interface ProfileView extends SessionUserView {
  /** Unused recovery codes of the authenticator app; 0 without one. */
  recoveryCodesLeft: number;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  locale: string | null;
  createdAt: string;
}

export interface UserViewService {
  sessionUser(user: UserRecord): Promise<SessionUserView>;
  profile(user: UserRecord): Promise<ProfileView>;
  adminUser(user: UserRecord): Promise<AdminUserView>;
  /** One factor lookup for a whole page of users. */
  adminUsers(users: UserRecord[]): Promise<AdminUserView[]>;
}

export function createUserViewService(deps: { factors: UserFactorReader; auth: AuthConfig }): UserViewService {
  const sessionView = (user: UserRecord, factors: UserFactorSummary): SessionUserView => ({
    managedBy: user.managedBy,
    sub: user.sub,
    email: user.email,
    role: user.role,
    emailVerified: user.emailVerified,
    emailVerificationRequired: user.emailVerificationRequired,
    hasPassword: user.passwordHash !== null,
    totpRegistered: factors.totpRegistered,
    // Only a registered TOTP can run out of recovery codes (docs/http-api.md).
    totpRecoveryCodesMissing: factors.totpRegistered && factors.unusedRecoveryCodes === 0,
    secondFactorRequired: isSecondFactorRequired(user, deps.auth.secondFactor),
    passkeyCount: factors.passkeyCount,
  });
  const adminView = (user: UserRecord, factors: UserFactorSummary): AdminUserView => ({
    ...sessionView(user, factors),
    deletedAt: user.deletedAt === null ? null : new Date(user.deletedAt).toISOString(),
  });
  const adminUsers = async (users: UserRecord[]) => {
    const summaries = await deps.factors.summarize(users.map((u) => u.sub));
    return users.map((user) => adminView(user, summaries.get(user.sub) ?? noFactors));
  };
  return {
    async sessionUser(user) {
      const summaries = await deps.factors.summarize([user.sub]);
      return sessionView(user, summaries.get(user.sub) ?? noFactors);
    },
    async profile(user) {
      const factors = (await deps.factors.summarize([user.sub])).get(user.sub) ?? noFactors;
      return {
        ...sessionView(user, factors),
        recoveryCodesLeft: factors.totpRegistered ? factors.unusedRecoveryCodes : 0,
        name: user.name,
        givenName: user.givenName,
        familyName: user.familyName,
        locale: user.locale,
        createdAt: new Date(user.createdAt).toISOString(),
      };
    },
    async adminUser(user) {
      return (await adminUsers([user]))[0];
    },
    adminUsers,
  };
}
