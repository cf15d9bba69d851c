import type { UserRecord } from '../model/index.js';

/** OIDC Core §5.4: the profile scope's claims this provider has (§5.1), in the order they are written. */
export const profileClaimNames = ['name', 'given_name', 'family_name', 'locale', 'updated_at'] as const;

/** OIDC Core §5.4: the email scope's claims. */
export const emailClaimNames = ['email', 'email_verified'] as const;

/**
 * The claims about the user that the granted scopes ask for (OIDC Core
 * §5.4), for the ID token and the UserInfo response alike. A profile field
 * the user does not have is left out, not sent as null or "" (§5.3.2).
 * updated_at is the last change of the user's record, in seconds (§5.1).
 */
export function userClaims(user: UserRecord, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes('profile')) {
    if (user.name !== null) claims.name = user.name;
    if (user.givenName !== null) claims.given_name = user.givenName;
    if (user.familyName !== null) claims.family_name = user.familyName;
    if (user.locale !== null) claims.locale = user.locale;
    claims.updated_at = Math.floor(user.updatedAt / 1000);
  }
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  return claims;
}
