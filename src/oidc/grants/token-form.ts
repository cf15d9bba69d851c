/**
 * The token endpoint's form as it arrives (RFC 6749 §4.1.3, §4.4.2, §6,
 * §2.3.1): one string per parameter, the route's joi schema having refused
 * repeats (§3.2). Only readTokenRequest and the grants' `read` look at it;
 * past them the request is camelCase.
 */
export interface TokenForm {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  device_code?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}
