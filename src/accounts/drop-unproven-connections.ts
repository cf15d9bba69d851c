import type { EventLog } from '../events/index.js';
import type { UserRecord } from '../model/index.js';
import type { ConnectionRepository, Tx } from '../storage/repositories.js';

/**
 * docs/http-api.md "Linking rules": a connection made while the account's
 * address was not verified was made by whoever held the account then, who
 * need not own the mailbox (an attacker who registered someone's address,
 * or whose upstream claimed it, before this server refused such sign-ups).
 * So the first proof of the address (a verification link, or a reset link,
 * which verifies too) removes every connection the account holds, inside
 * the transaction of that proof: the mailbox's owner gets the account with
 * no way in but the ones they make, and links again from /account. An
 * account whose address was already verified keeps its connections.
 */
export async function dropUnprovenConnections(
  deps: { connections: ConnectionRepository; events: EventLog },
  tx: Tx,
  user: UserRecord,
  clientAddress: string,
): Promise<void> {
  if (user.emailVerified) return;
  for (const { providerId } of await deps.connections.listBySub(tx, user.sub)) {
    await deps.connections.delete(tx, user.sub, providerId);
    await deps.events.record(tx, {
      type: 'provider.unlinked',
      actor: user.sub,
      subject: user.sub,
      clientAddress,
      detail: { provider: providerId, reason: 'email_verified' },
    });
  }
}
