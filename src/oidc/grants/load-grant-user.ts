import type { UserRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';

/** The grant's user, still there and not soft-deleted; otherwise the grant is dead. */
export async function loadGrantUser(sub: string, deps: ProtocolDeps, cacheGeneration?: number): Promise<UserRecord> {
  const user = await deps.cachedReads.findUser(sub, cacheGeneration);
  if (!user || user.deletedAt !== null)
    throw new OAuthError('invalid_grant', 'The user of this grant no longer exists.');
  return user;
}
