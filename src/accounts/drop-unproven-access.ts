import type { EventLog } from '../events/index.js';
import type { UserRecord } from '../model/index.js';
import type {
  ConnectionRepository,
  PasskeyRepository,
  RecoveryCodeRepository,
  TotpRepository,
  Tx,
} from '../storage/repositories.js';

/** What the removal reads, deletes and records. */
export interface UnprovenAccessDeps {
  connections: ConnectionRepository;
  passkeys: PasskeyRepository;
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  events: EventLog;
}

/**
 * docs/http-api.md "Proving an address": a connection, passkey or
 * authenticator app set up while the account's address was not verified
 * was set up by whoever held the account then, who need not own the
 * mailbox (someone who registered another person's address with a password
 * while registration asked no verification, or whose upstream claimed it
 * before this server refused such sign-ups). So the first proof of the
 * address (a verification link, or a reset link, which verifies too)
 * removes every connection, passkey, authenticator app (pending or
 * confirmed) and recovery code of the account, inside the transaction of
 * that proof, each recorded with `detail.reason: "email_verified"`: the
 * mailbox's owner gets the account with no way in but the ones they make.
 * An account whose address was already verified keeps them all.
 */
export async function dropUnprovenAccess(
  deps: UnprovenAccessDeps,
  tx: Tx,
  user: UserRecord,
  clientAddress: string,
): Promise<void> {
  if (user.emailVerified) return;
  const who = { actor: user.sub, subject: user.sub, clientAddress };
  const reason = 'email_verified';
  for (const { providerId } of await deps.connections.listBySub(tx, user.sub)) {
    await deps.connections.delete(tx, user.sub, providerId);
    await deps.events.record(tx, { type: 'provider.unlinked', ...who, detail: { provider: providerId, reason } });
  }
  for (const { id } of await deps.passkeys.listBySub(tx, user.sub)) {
    await deps.passkeys.delete(tx, user.sub, id);
    await deps.events.record(tx, { type: 'passkey.removed', ...who, detail: { passkey_id: id, reason } });
  }
  // A pending enrolment goes silently: no event said it was added.
  const totp = await deps.totp.find(tx, user.sub);
  await deps.totp.delete(tx, user.sub);
  await deps.recoveryCodes.deleteBySub(tx, user.sub);
  if (totp?.confirmedAt != null)
    await deps.events.record(tx, { type: 'second_factor.removed', ...who, detail: { factor: 'totp', reason } });
}
