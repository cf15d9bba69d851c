import type { UserRecord } from '../model/index.js';
import type { CachedReads } from './cached-reads.js';

/** OIDC Core §5.4: the profile scope's claims this provider has (§5.1), in the order they are written. */
export const profileClaimNames = ['name', 'given_name', 'family_name', 'locale', 'updated_at'] as const;

/** OIDC Core §5.4: the email scope's claims. */
export const emailClaimNames = ['email', 'email_verified'] as const;

/** The groups scope's claim: the ids of the user's groups (RFC 9068 §2.2.3.1 names it for access tokens too). */
export const groupsClaimName = 'groups';

/**
 * The user's groups for the `groups` claim: read (from every source, sorted,
 * through the generation-checked cache) only when the scopes hold `groups`,
 * null otherwise, so a token without the scope costs no read. `generation`:
 * one the request already read (CachedReads.groupsOf).
 */
export async function readClaimGroups(
  cachedReads: Pick<CachedReads, 'groupsOf'>,
  sub: string,
  scopes: readonly string[],
  generation?: number,
): Promise<readonly string[] | null> {
  return scopes.includes('groups') ? cachedReads.groupsOf(sub, generation) : null;
}

/**
 * The claims about the user that the granted scopes ask for (OIDC Core
 * §5.4), for the ID token and the UserInfo response alike. A profile field
 * the user does not have is left out, not sent as null or "" (§5.3.2).
 * updated_at is the last change of the user's record, in seconds (§5.1).
 * `groups` is what readClaimGroups gave for the same scopes: a list (empty
 * for a user in no group) exactly when the groups scope was granted.
 */
export function userClaims(
  user: UserRecord,
  scopes: readonly string[],
  groups: readonly string[] | null,
): Record<string, unknown> {
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
  if (groups !== null) claims[groupsClaimName] = groups;
  return claims;
}
