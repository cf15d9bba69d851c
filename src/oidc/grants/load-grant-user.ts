import type { UserRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { readClaimGroups } from '../user-claims.js';

/** The user of a grant and, when the tokens' scopes or requested claims hold `groups`, their groups (else null). */
export interface GrantUser {
  user: UserRecord;
  groups: readonly string[] | null;
}

/**
 * The grant's user, still there and not soft-deleted (otherwise the grant
 * is dead), with the groups its tokens' `scopes` or its ID token's
 * requested claims (`requested`) ask for. Both come from
 * the generation-checked cache: `cacheGeneration` when the request already
 * read one (the refresh claim), else one read shared by the two lookups.
 */
export async function loadGrantUser(
  sub: string,
  scopes: readonly string[],
  deps: ProtocolDeps,
  cacheGeneration?: number,
  requested: readonly string[] = [],
): Promise<GrantUser> {
  const [user, groups] = await Promise.all([
    deps.cachedReads.findUser(sub, cacheGeneration),
    readClaimGroups(deps.cachedReads, sub, scopes, cacheGeneration, requested),
  ]);
  if (!user || user.deletedAt !== null)
    throw new OAuthError('invalid_grant', 'The user of this grant no longer exists.');
  return { user, groups };
}
