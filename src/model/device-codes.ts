/** Where a device authorization (RFC 8628) stands: waiting for the user, or decided by them. */
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied';

/** The user's sign-in that approved a device authorization request. */
export interface DeviceApproval {
  sub: string;
  /** SessionRecord.idHash of the session that approved. */
  sessionId: string;
  /** SessionRecord.publicId of that session (the grant's `sid`). */
  sid: string;
  /** RFC 8176 methods of that sign-in. */
  amr: string[];
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
}

/**
 * One device authorization request (RFC 8628 §3.1–3.5): what the device
 * polls with (its device code, stored as a digest only) and what the user
 * types on /device (its user code), until it expires or is spent.
 */
export interface DeviceCodeRecord {
  /** base64url SHA-256 of the device code; the code itself is never stored. */
  deviceCodeHash: string;
  /** The 8 letters the user types, without the dash, upper case. */
  userCode: string;
  clientId: string;
  /** The scopes to grant, already narrowed to the client's. */
  scopes: string[];
  status: DeviceCodeStatus;
  /** The user who allowed it on the consent page; the approval must be theirs. */
  confirmedBy: string | null;
  /** Set on approval: the sign-in the tokens are issued for. */
  approval: DeviceApproval | null;
  /** The grant the tokens are issued under. */
  grantId: string;
  /** RFC 8628 §3.5: the least seconds between polls; slow_down adds 5. */
  intervalSeconds: number;
  lastPolledAt: number | null;
  expiresAt: number;
  /** Set when the tokens were issued: the code is then spent. */
  spentAt: number | null;
  createdAt: number;
}
