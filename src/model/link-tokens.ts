/** What a mailed link lets its holder do once (docs/http-api.md, "Self-service accounts"). */
export type LinkTokenPurpose = 'email_verification' | 'password_reset';

/** A single-use token of a mailed link; the raw token is only ever in the mail. */
export interface LinkTokenRecord {
  /** SHA-256 (base64url) of the 32 random bytes carried by the link. */
  tokenHash: string;
  sub: string;
  purpose: LinkTokenPurpose;
  /** The address the link was sent to: the token is void once the user's e-mail changes. */
  email: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}
