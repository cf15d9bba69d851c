/**
 * The grant registry (STYLE.md 4): every grant type the token endpoint
 * supports, each a module implementing Grant. Adding a grant is adding it
 * to this list; the endpoint's shared phases apply to it automatically.
 */
import type { Grant } from './grant.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { refreshTokenGrant } from './refresh-token.js';
import { clientCredentialsGrant } from './client-credentials.js';

export type { Grant, GrantRequest, TokenResponse } from './grant.js';

export const grants: ReadonlyMap<string, Grant> = new Map(
  [authorizationCodeGrant, refreshTokenGrant, clientCredentialsGrant].map((grant) => [grant.grantType, grant]),
);
