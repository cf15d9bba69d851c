/** Who owns a user or client row: the config file (apply) or the database (API, registration). */
export type ManagedBy = 'database' | 'config';
export type UserRole = 'user' | 'admin';

export interface UserRecord {
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
