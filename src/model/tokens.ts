import type { RequestedClaims } from './authorization.js';

/** What one authorization (a code, its refresh tokens) granted; revoking it stops them all. */
export interface GrantRecord {
  /** The authorization code's grantId. */
  grantId: string;
  clientId: string;
  sub: string;
  scopes: string[];
  authTime: number;
  /** RFC 8176 methods of the sign-in the code came from; empty when unknown. */
  amr: string[];
  sessionId: string | null;
  /** SessionRecord.publicId of that session: the `sid` of the grant's ID tokens, kept after the session ends. */
  sid: string | null;
  /** The user claims of the authorization request's `claims` parameter; null when it had none. */
  claims: RequestedClaims | null;
  revokedAt: number | null;
  expiresAt: number;
  createdAt: number;
}

export interface RefreshTokenRecord {
  /** base64url SHA-256 of the token. */
  tokenHash: string;
  grantId: string;
  clientId: string;
  sub: string;
  scopes: string[];
  expiresAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}
