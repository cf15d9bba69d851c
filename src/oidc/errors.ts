/**
 * The protocol's one error type. Steps throw it; the HTTP layer renders it in
 * the right channel (JSON body, redirect to the client, or an error page).
 * RFC 6749 §4.1.2.1 and §5.2, OIDC Core §3.1.2.6, RFC 7009 §2.2.1, RFC 6750 §3.1.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'account_selection_required'
  | 'invalid_request_uri'
  | 'invalid_request_object'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'registration_not_supported'
  // RFC 8628 §3.5: the device's polls.
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token';

const defaultStatus: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  server_error: 500,
  temporarily_unavailable: 503,
};

export class OAuthError extends Error {
  readonly status: number;
  /** Response headers the error needs (WWW-Authenticate of RFC 6749 §5.2 and RFC 6750 §3). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    status?: number,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
    this.status = status ?? defaultStatus[error] ?? 400;
  }

  /** The RFC 6749 §5.2 JSON body. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
