/** A user's authenticator app (RFC 6238 TOTP). */
export interface TotpCredentialRecord {
  sub: string;
  /** The base32 secret, sealed with a key derived from security.secret (never stored in clear). */
  sealedSecret: string;
  /** Null while the enrolment waits for its first code. */
  confirmedAt: number | null;
  /** The last 30-second step whose code was accepted; it and earlier steps are refused. */
  lastUsedStep: number | null;
  createdAt: number;
}

/** singleDevice: bound to one authenticator; multiDevice: a synced passkey (WebAuthn BE flag). */
export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

/** A WebAuthn credential registered by a user. */
export interface PasskeyRecord {
  /** Our id (a UUID), the one the API names. */
  id: string;
  sub: string;
  /** The credential id the authenticator chose (base64url). */
  credentialId: string;
  name: string;
  /** COSE public key, base64url. */
  publicKey: string;
  signCount: number;
  transports: string[];
  deviceType: PasskeyDeviceType;
  /** WebAuthn BS flag, as last seen. */
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

export type WebAuthnCeremony = 'registration' | 'authentication';

/** A WebAuthn challenge handed out and not answered yet (single use, short-lived). */
export interface WebAuthnChallengeRecord {
  /** base64url, as in the options and the client data. */
  challenge: string;
  purpose: WebAuthnCeremony;
  /** The user registering a passkey; null for an authentication. */
  sub: string | null;
  /** SessionRecord.idHash of the session that asked; null for a passwordless sign-in. */
  sessionId: string | null;
  expiresAt: number;
  createdAt: number;
}
