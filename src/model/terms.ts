export interface TermContentRecord {
  title: string;
  type: 'link' | 'text';
  content: string;
}

export interface TermRecord {
  id: string;
  required: boolean;
  consentMode: 'explicit' | 'implicit';
  /** Re-consent tracking (docs/http-api.md, "Terms of service"): acceptances record the version they accepted. */
  version: string;
  /** Locale → content. */
  content: Record<string, TermContentRecord>;
  createdAt: number;
  updatedAt: number;
}

export interface TermVersionRecord {
  termId: string;
  version: string;
  content: Record<string, TermContentRecord>;
  createdAt: number;
}

/** A user accepted a version of a term at a time; rows are history, never overwritten. */
export interface TermAcceptanceRecord {
  sub: string;
  termId: string;
  version: string;
  acceptedAt: number;
}
