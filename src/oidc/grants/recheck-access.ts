import { decideAccess } from '../../access/decide-access.js';
import type { ClientAccess, ClientRecord, GrantRecord, UserRecord } from '../../model/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';

/**
 * Every refresh asks `clients[].access` again (docs/oidc.md, "Token
 * endpoint"): a user who has lost the client since the sign-in (a group
 * left, a rule changed) gets invalid_grant, and the grant is revoked with
 * its refresh and access tokens (the revocation bumps the cache generation,
 * so userinfo and introspection refuse them at once), recording
 * access.denied in the same transaction. The groups come from the
 * generation-checked cache at the generation the claim read: no statement
 * of its own while nothing changed; a rule of roles alone reads none. The
 * caller calls it only for a client with a rule, so the others pay nothing.
 */
export async function recheckAccess(
  rule: ClientAccess,
  client: ClientRecord,
  user: UserRecord,
  grant: Pick<GrantRecord, 'grantId'>,
  deps: ProtocolDeps,
  cacheGeneration: number,
): Promise<void> {
  const groups = rule.groups === null ? [] : await deps.cachedReads.groupsOf(user.sub, cacheGeneration);
  if (decideAccess(rule, user, new Set(groups)).allowed) return;
  await deps.transaction(async (tx) => {
    await deps.tokenStore.revokeGrant(tx, grant.grantId, deps.clock.now());
    await deps.events.record(tx, {
      type: 'access.denied',
      actor: user.sub,
      subject: user.sub,
      clientId: client.clientId,
      detail: { at: 'refresh' },
    });
  });
  throw new OAuthError('invalid_grant', 'The user no longer has access to this client; the grant has been revoked.');
}
