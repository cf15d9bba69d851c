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
 * through the generation-checked cache) only when the scopes hold `groups`
 * or the `claims` parameter asked for it (`requested`), null otherwise, so
 * a token without either costs no read. `generation`: one the request
 * already read (CachedReads.groupsOf).
 */
export async function readClaimGroups(
  cachedReads: Pick<CachedReads, 'groupsOf'>,
  sub: string,
  scopes: readonly string[],
  generation?: number,
  requested: readonly string[] = [],
): Promise<readonly string[] | null> {
  return scopes.includes('groups') || requested.includes(groupsClaimName)
    ? cachedReads.groupsOf(sub, generation)
    : null;
}

/**
 * The claims about the user that the granted scopes ask for (OIDC Core
 * §5.4), and those the `claims` parameter asked for in this place
 * (`requested`, §5.5: ./claims-request.ts), for the ID token and the
 * UserInfo response alike. A profile field
 * the user does not have is left out, not sent as null or "" (§5.3.2).
 * updated_at is the last change of the user's record, in seconds (§5.1).
 * `groups` is what readClaimGroups gave for the same scopes and request: a
 * list (empty for a user in no group) exactly when one of them asks for it.
 */
export function userClaims(
  user: UserRecord,
  scopes: readonly string[],
  groups: readonly string[] | null,
  requested: readonly string[] = [],
): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  const profile = scopes.includes('profile');
  const wants = (name: string) => profile || requested.includes(name);
  if (wants('name') && user.name !== null) claims.name = user.name;
  if (wants('given_name') && user.givenName !== null) claims.given_name = user.givenName;
  if (wants('family_name') && user.familyName !== null) claims.family_name = user.familyName;
  if (wants('locale') && user.locale !== null) claims.locale = user.locale;
  if (wants('updated_at')) claims.updated_at = Math.floor(user.updatedAt / 1000);
  const email = scopes.includes('email');
  if (email || requested.includes('email')) claims.email = user.email;
  if (email || requested.includes('email_verified')) claims.email_verified = user.emailVerified;
  if (groups !== null) claims[groupsClaimName] = groups;
  return claims;
}
