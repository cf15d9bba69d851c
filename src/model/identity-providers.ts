export type IdentityProviderType = 'github' | 'google' | 'apple' | 'generic_oauth';
export type EmailConflictStrategy = 'auto_link' | 'require_link';

export interface IdentityProviderRecord {
  id: string;
  type: IdentityProviderType;
  enabled: boolean;
  displayName: string | null;
  iconUrl: string | null;
  clientId: string;
  /**
   * Keyed digest of the client secret (src/gitops/fingerprint-secret.ts): it
   * only lets diff notice a changed secret. The secret itself is read from
   * the config at runtime and never stored.
   */
  clientSecretFingerprint: string;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  emailUrl: string | null;
  scopes: string[];
  emailConflictStrategy: EmailConflictStrategy;
  createdAt: number;
  updatedAt: number;
}
