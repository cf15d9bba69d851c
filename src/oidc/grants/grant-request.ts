/** RFC 6749 §4.1.3 with RFC 7636 §4.5. */
export interface AuthorizationCodeRequest {
  grantType: 'authorization_code';
  code: string;
  /** Required here: the authorization request always carries one in OIDC (Core §3.1.2.1). */
  redirectUri: string;
  codeVerifier: string | undefined;
}

/** RFC 6749 §6. */
export interface RefreshTokenRequest {
  grantType: 'refresh_token';
  refreshToken: string;
  /** A narrower scope than the grant's, or undefined for all of it. */
  scope: string | undefined;
}

/** RFC 6749 §4.4.2. */
export interface ClientCredentialsRequest {
  grantType: 'client_credentials';
  scope: string | undefined;
}

/** RFC 8628 §3.4. */
export interface DeviceCodeRequest {
  grantType: 'urn:ietf:params:oauth:grant-type:device_code';
  deviceCode: string;
}

/** A token request's grant parameters, camelCase, by grant type. */
export type GrantRequest =
  AuthorizationCodeRequest | RefreshTokenRequest | ClientCredentialsRequest | DeviceCodeRequest;

/** The grant's required parameters the form lacks, by wire name, in the grant's order. */
export interface MissingParameters {
  missing: string[];
}

/** RFC 6749 §3.2: a parameter sent without a value counts as omitted. */
export function missingParameters(required: Record<string, string | undefined>): MissingParameters {
  return { missing: Object.keys(required).filter((name) => !required[name]) };
}
