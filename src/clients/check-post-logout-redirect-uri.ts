import type { ClientRecord } from '../model/index.js';

/** OIDC RP-Initiated Logout 1.0 §3: exact match against the client's registered post-logout URIs. */
export function isRegisteredPostLogoutRedirectUri(
  client: Pick<ClientRecord, 'postLogoutRedirectUris'>,
  uri: string,
): boolean {
  return client.postLogoutRedirectUris.includes(uri);
}
