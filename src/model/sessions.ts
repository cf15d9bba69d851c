/** A server-side browser session (docs/http-api.md, "Sessions and login"); the cookie holds the raw id. */
export interface SessionRecord {
  /** SHA-256 (base64url) of the random id in the cookie; the raw id is never stored. */
  idHash: string;
  /**
   * The session's stable public id: the `sid` of its ID tokens and Logout
   * Tokens (OpenID Back-Channel Logout 1.0 §2.4). Random, never the idHash,
   * and kept when the session is renewed.
   */
  publicId: string;
  sub: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
  /** RFC 8176 authentication method references. */
  amr: string[];
  /** The password was right but a required second factor is still missing. */
  secondFactorPending: boolean;
  /**
   * A client asked for a second factor and the user stepped up (POST
   * /api/auth/step-up): this pending session completes only with one, the
   * enrolment of a first one when the user has none.
   */
  secondFactorRequired: boolean;
}

/** One login rate-limit window, per account or per client address. */
export interface LoginRateLimitCounter {
  key: string;
  failures: number;
  windowStartedAt: number;
}
