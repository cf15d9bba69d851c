import type { ClientRecord, ClientGrantType } from '../../model/index.js';
import type { ProviderDeps } from '../provider-deps.js';

/** RFC 6749 §5.1 successful response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/** A parsed token request: the form's parameters, client authentication done. */
export interface GrantRequest {
  client: ClientRecord;
  /** Every form parameter, single-valued (the HTTP edge refuses repeats, RFC 6749 §3.2). */
  params: Record<string, string | undefined>;
}

/**
 * One grant type (STYLE.md 4): the token endpoint authenticates the client,
 * checks it may use the grant and that `parameters` are present, then hands
 * over to `handler`.
 */
export interface Grant {
  grantType: ClientGrantType;
  /** Required parameters besides grant_type; a missing one is invalid_request. */
  parameters: string[];
  handler(request: GrantRequest, deps: ProviderDeps): Promise<TokenResponse>;
}
