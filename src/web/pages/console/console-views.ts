/**
 * What the console's pages show, as the admin services (src/admin) answer
 * it: written here as plain shapes, since the pages sit beside the admin
 * area, not above it (test/architecture/import-direction.test.ts). The
 * services' types match them structurally.
 */
export interface ConsoleUser {
  managedBy: 'database' | 'config';
  sub: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  hasPassword: boolean;
  totpRegistered: boolean;
  secondFactorRequired: boolean;
  passkeyCount: number;
  /** ISO 8601, or null for a live user. */
  deletedAt: string | null;
}

export interface ConsoleGroupSummary {
  id: string;
  name: string;
  description: string | null;
  memberCount: number;
}

export interface ConsoleUserDetail {
  user: ConsoleUser;
  restorableUntil: number | null;
  groups: { id: string; name: string; source: string }[];
  allGroups: { id: string; name: string }[];
  connections: { displayName: string; email: string | null; linkedAt: number }[];
  events: { id: number; type: string; time: number }[];
}

export interface ConsoleOverview {
  signInsPerDay: { day: string; count: number }[];
  failedSignIns: number;
  activeSessions: number;
  lastApply: { time: number } | null;
  drift?: { inSync: boolean; changes: number; checkedAt: number } | null;
}
