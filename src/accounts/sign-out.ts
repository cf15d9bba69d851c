import type { EventLog } from '../events/index.js';
import type { Storage } from '../storage/repositories.js';
import type { SessionEnd } from './session-end.js';

/**
 * Ends a browser session (POST /api/auth/logout, RP-initiated logout), with
 * what it issued (./session-end.ts), and records the sign_out event in the
 * same transaction.
 */
export type SignOut = (
  session: { idHash: string; sub: string },
  context: { clientAddress: string; clientId?: string | null },
) => Promise<void>;

export function createSignOut(deps: {
  storage: Pick<Storage, 'transaction'>;
  sessionEnd: SessionEnd;
  events: EventLog;
}): SignOut {
  return (session, context) =>
    deps.storage.transaction(async (tx) => {
      await deps.sessionEnd.one(tx, session.idHash);
      await deps.events.record(tx, {
        type: 'sign_out',
        actor: session.sub,
        subject: session.sub,
        clientAddress: context.clientAddress,
        clientId: context.clientId ?? null,
      });
    });
}
