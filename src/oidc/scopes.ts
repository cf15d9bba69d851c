import { OAuthError } from './errors.js';

/**
 * Scopes that only make sense with a user (OIDC Core §5.4, §11), and
 * `groups`: the ids of the user's groups (docs/oidc.md, "Claims"). Discovery
 * lists them all; client_credentials grants none of them.
 */
export const openIdScopes = ['openid', 'profile', 'email', 'offline_access', 'groups'] as const;

/** RFC 6749 §3.3: space-delimited, case-sensitive, no empty entries. */
export function parseScope(scope: string): string[] {
  const scopes = scope.split(' ');
  if (scopes.some((s) => s === '' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s)))
    throw new OAuthError('invalid_scope', 'The scope parameter is malformed.');
  return [...new Set(scopes)];
}

/**
 * The wire form of granted scopes. RFC 6749 §3.3 defines a scope as one or
 * more tokens, so an empty grant has no value at all: undefined, for the
 * caller to leave the member or claim out, never "".
 */
export function formatScope(scopes: string[]): string | undefined {
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}
