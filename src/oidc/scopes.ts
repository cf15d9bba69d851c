import { OAuthError } from './errors.js';

/** Scopes that only make sense with a user (OIDC Core §5.4, §11). */
export const openIdScopes = ['openid', 'profile', 'email', 'offline_access'] as const;

/** RFC 6749 §3.3: space-delimited, case-sensitive, no empty entries. */
export function parseScope(scope: string): string[] {
  const scopes = scope.split(' ');
  if (scopes.some((s) => s === '' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))) throw new OAuthError('invalid_scope', 'The scope parameter is malformed.');
  return [...new Set(scopes)];
}
