/**
 * Why an upstream sign-in ended on /login (docs/http-api.md, "Upstream identity providers": `/login?error=CODE`).
 * The page shows each code as a sentence (src/i18n, errors); docs/http-api.md
 * lists them.
 */
export type FederationErrorCode =
  /** The upstream refused, failed, timed out, or answered something that does not verify. */
  | 'UPSTREAM_ERROR'
  /** The state is missing, unknown, used, expired, or from another browser or provider. */
  | 'INVALID_STATE'
  /** The provider is unknown, disabled, or no longer in the config. */
  | 'PROVIDER_NOT_FOUND'
  /** A first sign-in while registration.enabled is false. */
  | 'REGISTRATION_DISABLED'
  /** A first sign-in with an address registration.allowed_email_patterns does not allow. */
  | 'EMAIL_NOT_ALLOWED'
  /**
   * A first sign-in with an address the upstream does not assert verified
   * (nothing is created; the redirect names the provider), or an account
   * that must verify its address first (a verification mail was sent).
   */
  | 'EMAIL_NOT_VERIFIED'
  /** The upstream account gives no e-mail address, and a new account or link needs one. */
  | 'UPSTREAM_EMAIL_MISSING'
  /** An account with the upstream's address exists: sign in to it, and the link completes. */
  | 'LINK_REQUIRED'
  /** The upstream account is linked to another user already. */
  | 'CONNECTION_IN_USE'
  /** The user is linked to another account at this provider already. */
  | 'ALREADY_CONNECTED'
  /** The connection's user was deleted. */
  | 'ACCOUNT_DELETED';

export class FederationError extends Error {
  /** The redirect to /login carries `provider={id}`, for a sentence that names it. */
  readonly namesProvider: boolean;

  constructor(
    readonly code: FederationErrorCode,
    message: string,
    options: { namesProvider?: boolean } = {},
  ) {
    super(message);
    this.name = 'FederationError';
    this.namesProvider = options.namesProvider ?? false;
  }
}

/**
 * Something about the upstream's answer was wrong. The reason is for the
 * log (which provider, which endpoint, what was wrong); the browser only
 * sees UPSTREAM_ERROR.
 */
export class UpstreamError extends FederationError {
  constructor(readonly reason: string) {
    super('UPSTREAM_ERROR', reason);
    this.name = 'UpstreamError';
  }
}
