import type { ClientAccess, UserRecord } from '../model/index.js';

/** OIDC Core §3.1.2.1 prompt values: checked by src/oidc/authorize, acted on by the sign-in steps. */
export type Prompt = 'none' | 'login' | 'consent' | 'select_account';

/**
 * The authorization request a sign-in answers, as far as the steps read it.
 * src/oidc/authorize has already validated it (its validation steps); the
 * browser comes back to it after each page, rebuilt from `params`.
 */
export interface PendingAuthorization {
  /** Single-valued, as the client sent them plus this server's interaction parameters. */
  params: Readonly<Record<string, string>>;
  client: { clientId: string; name: string; skipConsent: boolean; access: ClientAccess | null };
  /** The scopes to grant, already narrowed to the client's. */
  scopes: string[];
  /** Scopes of the claims the `claims` parameter asks for beyond `scopes`: consented with them, not granted. */
  claimScopes: string[];
  /** `aal2`: the request demands a second factor in the sign-in (acr_values or an essential acr claim). */
  requiredAcr: 'aal2' | null;
  prompt: ReadonlySet<Prompt>;
  /** max_age in seconds; null when not asked. */
  maxAge: number | null;
  /** Epoch ms: the sign-in must be this recent (set when this server sent the browser to /login). */
  authAfter: number | null;
  /** The user pressed Deny on the consent page. */
  consentDenied: boolean;
  /** The user declined a required term on the terms page. */
  termsDeclined: boolean;
  /** The user outside the client's access pressed "Back to" on the access-denied page. */
  accessDenied: boolean;
  /** A device's request (RFC 8628 §3.3), entered by its user code on /device; null for an authorization request. */
  device: DeviceRequest | null;
}

/** What the steps know of a device's request beyond an authorization request's. */
export interface DeviceRequest {
  /** As stored: 8 upper-case letters without the dash. */
  userCode: string;
  /** The user who allowed it on the consent page, if anyone has yet: consent is asked of every device request. */
  confirmedBy: string | null;
}

/** What a consent to `request` covers: its scopes, then those of the claims it asks for beyond them. */
export function consentScopes(request: Pick<PendingAuthorization, 'scopes' | 'claimScopes'>): string[] {
  return [...request.scopes, ...request.claimScopes];
}

/** The browser's session: every sign-in step passed when it was created (a pending one is none). */
export interface SessionIdentity {
  kind: 'session';
  sub: string;
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
  /** RFC 8176 methods of the sign-in that created it (SessionRecord.amr). */
  amr: string[];
  /** SessionRecord.idHash. */
  sessionId: string;
  /** The session's user as it is now (read with the session on this request). */
  user: UserRecord;
}

/** A sign-in method (a password today) has just established who this is; the session is created once the steps pass. */
export interface NewIdentity {
  kind: 'new';
  sub: string;
  authTime: number;
  user: UserRecord;
  /** RFC 8176 methods used, e.g. ['pwd']. */
  amr: string[];
  /**
   * A client asked for a second factor and the user stepped up
   * (SessionRecord.secondFactorRequired): the sign-in waits for one
   * whatever auth.second_factor says of this user. Absent: it does not.
   */
  secondFactorRequired?: boolean;
}

export type Identity = SessionIdentity | NewIdentity;

/**
 * Where a run of the steps starts: the authorization endpoint, with the
 * cookie's session if there is one; or a sign-in method, with the identity
 * it established and no request (the browser goes back to return_to, and
 * the authorization endpoint runs the steps again with it).
 */
export type SignInStart =
  { identity: SessionIdentity | null; request: PendingAuthorization } | { identity: NewIdentity; request: null };

/** The state after identify: someone is signed in (or signing in). */
export interface Identified {
  identity: Identity;
  request: PendingAuthorization | null;
}
