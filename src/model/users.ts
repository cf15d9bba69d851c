/** Who owns a user or client row: the config file (apply) or the database (API, registration). */
export type ManagedBy = 'database' | 'config';
export type UserRole = 'user' | 'admin';

/**
 * The profile of a user (docs/http-api.md, "Your own account"; OIDC Core §5.1 name, given_name,
 * family_name, locale): null when not given. A config-managed user's come
 * from the file; a database-managed user edits their own (PATCH /api/user).
 */
export interface UserProfileFields {
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  /** One of i18n.locales, as spelled there. */
  locale: string | null;
}

export interface UserRecord extends UserProfileFields {
  sub: string;
  managedBy: ManagedBy;
  email: string;
  role: UserRole;
  emailVerified: boolean;
  emailVerificationRequired: boolean;
  passwordHash: string | null;
  secondFactorRequired: boolean;
  deletedAt: number | null;
  createdAt: number;
  updatedAt: number;
}
