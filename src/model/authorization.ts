/**
 * The user claims a `claims` request parameter (OIDC Core §5.5) asked for,
 * by where they go, as names of claims this server can release to the
 * client: they are released there even when no granted scope holds them.
 */
export interface RequestedClaims {
  idToken: string[];
  userinfo: string[];
}

/** An authorization code (RFC 6749 §4.1) as stored: hashed, single use. */
export interface AuthorizationCodeRecord {
  /** base64url SHA-256 of the code; the code itself is never stored. */
  codeHash: string;
  /** Shared by every token issued from this code, so a replay can revoke them all. */
  grantId: string;
  clientId: string;
  sub: string;
  redirectUri: string;
  scopes: string[];
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
  /** RFC 8176 methods of the sign-in (the session's amr); empty when unknown. */
  amr: string[];
  /** idHash of the session the code was issued in (SessionRecord.idHash), if any. */
  sessionId: string | null;
  /** SessionRecord.publicId of that session: the `sid` of the ID tokens issued from the code. */
  sid: string | null;
  /** The user claims the request's `claims` parameter asked for; null when it had none. */
  claims: RequestedClaims | null;
  expiresAt: number;
  consumedAt: number | null;
  createdAt: number;
}

/** The scopes a user allowed a client (the consent step). */
export interface ConsentRecord {
  sub: string;
  clientId: string;
  scopes: string[];
  grantedAt: number;
}

/**
 * A pushed authorization request (RFC 9126): the parameters a client sent
 * to the PAR endpoint, kept until the browser brings its request_uri to
 * the authorization endpoint, which claims it once.
 */
export interface PushedAuthorizationRequestRecord {
  /** base64url SHA-256 of the random part of the request_uri; the request_uri itself is never stored. */
  requestHash: string;
  clientId: string;
  /** The authorization parameters as pushed, single-valued, already validated. */
  params: Record<string, string>;
  expiresAt: number;
  /** When the authorization endpoint claimed it; null until then. */
  usedAt: number | null;
  createdAt: number;
}
